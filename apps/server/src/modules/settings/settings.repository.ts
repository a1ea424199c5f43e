import { and, eq } from 'drizzle-orm';
import { ORGANIZATION_SETTINGS, SITE_SETTINGS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { organizationSettings, siteSettings } from '../../db/schema.js';

/** Who a setting belongs to: an organization or a site (each has its own table). */
export type SettingScope = 'organization' | 'site';

/** An organization or a site, by its id. */
export type SettingOwner = { scope: SettingScope; id: string };

/** An organization or site setting, read from either table. */
export type SettingRow = {
  id: string;
  idString: string;
  display: string;
  value: string;
  /** Organization settings marked inherited show, read-only, on every site (always false on a site's own). */
  inherited: boolean;
  /** Set on an organization's setting. */
  organizationId: string | null;
  /** Set on a site's own setting. */
  siteId: string | null;
};

type OrganizationSettingRecord = typeof organizationSettings.$inferSelect;
type SiteSettingRecord = typeof siteSettings.$inferSelect;

function fromOrganization(row: OrganizationSettingRecord): SettingRow & { organizationId: string } {
  const { id, idString, display, value, inherited, organizationId } = row;
  return { id, idString, display, value, inherited, organizationId, siteId: null };
}

function fromSite(row: SiteSettingRecord): SettingRow {
  const { id, idString, display, value, siteId } = row;
  return { id, idString, display, value, inherited: false, organizationId: null, siteId };
}

/** The order settings are shown in: as their definitions are listed. */
const DEFINITION_ORDER: Record<SettingScope, string[]> = {
  organization: ORGANIZATION_SETTINGS.map((d) => d.idString),
  site: SITE_SETTINGS.map((d) => d.idString),
};

/** Rows ordered as their definitions are listed; rows without a definition follow by id string. */
function sortByDefinition(rows: SettingRow[], order: string[]): SettingRow[] {
  const rank = (idString: string) => {
    const index = order.indexOf(idString);
    return index === -1 ? order.length : index;
  };
  return [...rows].sort((a, b) => rank(a.idString) - rank(b.idString) || a.idString.localeCompare(b.idString));
}

/** The owner's settings in definition order; `inheritedOnly` keeps an organization's inherited ones. */
export async function listSettingRows(db: Db, owner: SettingOwner, options: { inheritedOnly?: boolean } = {}): Promise<SettingRow[]> {
  const rows =
    owner.scope === 'organization'
      ? (
          await db
            .select()
            .from(organizationSettings)
            .where(
              and(
                eq(organizationSettings.organizationId, owner.id),
                options.inheritedOnly ? eq(organizationSettings.inherited, true) : undefined,
              ),
            )
        ).map(fromOrganization)
      : (await db.select().from(siteSettings).where(eq(siteSettings.siteId, owner.id))).map(fromSite);
  return sortByDefinition(rows, DEFINITION_ORDER[owner.scope]);
}

/** The settings a site shows: its organization's inherited ones (read-only there), then its own. */
export async function listSettingRowsShownOnSite(db: Db, site: { id: string; organizationId: string }): Promise<SettingRow[]> {
  const [inherited, own] = await Promise.all([
    listSettingRows(db, { scope: 'organization', id: site.organizationId }, { inheritedOnly: true }),
    listSettingRows(db, { scope: 'site', id: site.id }),
  ]);
  return [...inherited, ...own];
}

/** One of the owner's settings, by its id string. */
export async function findSettingRow(db: Db, owner: SettingOwner, idString: string): Promise<SettingRow | undefined> {
  if (owner.scope === 'organization') {
    const [row] = await db
      .select()
      .from(organizationSettings)
      .where(and(eq(organizationSettings.organizationId, owner.id), eq(organizationSettings.idString, idString)));
    return row && fromOrganization(row);
  }
  const [row] = await db
    .select()
    .from(siteSettings)
    .where(and(eq(siteSettings.siteId, owner.id), eq(siteSettings.idString, idString)));
  return row && fromSite(row);
}

/** Saves a setting's value (by the setting's id, in its scope's table); answers the saved row. */
export async function updateSettingValue(db: Db, setting: { scope: SettingScope; id: string }, value: string): Promise<SettingRow> {
  const updatedAt = new Date();
  if (setting.scope === 'organization') {
    const [row] = await db.update(organizationSettings).set({ value, updatedAt }).where(eq(organizationSettings.id, setting.id)).returning();
    return fromOrganization(row!);
  }
  const [row] = await db.update(siteSettings).set({ value, updatedAt }).where(eq(siteSettings.id, setting.id)).returning();
  return fromSite(row!);
}

/** One setting's row in every organization (start-up upkeep). */
export async function listSettingRowsOfEveryOrganization(db: Db, idString: string): Promise<(SettingRow & { organizationId: string })[]> {
  return (await db.select().from(organizationSettings).where(eq(organizationSettings.idString, idString))).map(fromOrganization);
}

/** Replaces an organization setting's value only while it is still `expected`; answers whether it did. */
export async function replaceOrganizationSettingValue(
  db: Db,
  change: { id: string; expected: string; value: string },
): Promise<boolean> {
  const rows = await db
    .update(organizationSettings)
    .set({ value: change.value, updatedAt: new Date() })
    .where(and(eq(organizationSettings.id, change.id), eq(organizationSettings.value, change.expected)))
    .returning({ id: organizationSettings.id });
  return rows.length > 0;
}
