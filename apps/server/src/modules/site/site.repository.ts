import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { SITE_SETTINGS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibits, hardware, organizations, siteSettings, sites } from '../../db/schema.js';
import { idsOrNone, type Grants } from '../access/grants.js';
import type { DeletedPlace } from '../organization/organization.repository.js';

/** A site with the name of its organization, as lists and details present it. */
export type SiteListRow = {
  id: string;
  name: string;
  organizationId: string;
  organizationName: string;
  createdAt: Date;
};

/** Which sites a caller may see: every site, or those of some organizations plus some single sites. */
export type SiteScope = 'all' | { organizationIds: string[]; siteIds: string[] };

/** The sites a caller sees: all (platform admin), else those of granted organizations, granted sites and sites of granted exhibits. */
export function visibleSiteScope(grants: Grants): SiteScope {
  if (grants.isPlatformAdmin) return 'all';
  return {
    organizationIds: [...grants.organizations.keys()],
    siteIds: [...grants.sites.keys(), ...grants.siteIdsThroughExhibits()],
  };
}

const listColumns = {
  id: sites.id,
  name: sites.name,
  organizationId: sites.organizationId,
  organizationName: organizations.name,
  createdAt: sites.createdAt,
};

/** Sites within the scope, optionally of one organization, sorted by name. */
export async function listSiteRows(db: Db, scope: SiteScope, organizationId?: string): Promise<SiteListRow[]> {
  const conditions: SQL[] = [];
  if (scope !== 'all') {
    conditions.push(
      or(inArray(sites.organizationId, idsOrNone(scope.organizationIds)), inArray(sites.id, idsOrNone(scope.siteIds)))!,
    );
  }
  if (organizationId) conditions.push(eq(sites.organizationId, organizationId));
  return db
    .select(listColumns)
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(sql`lower(${sites.name})`), asc(sql`lower(${organizations.name})`), asc(sites.id));
}

export async function findSiteRow(db: Db, id: string): Promise<SiteListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(eq(sites.id, id));
  return row;
}

export type SiteRow = typeof sites.$inferSelect;

/** Inserts the site with its default settings in one transaction. */
export async function insertSite(db: Db, values: { organizationId: string; name: string }): Promise<SiteRow> {
  return db.transaction(async (tx) => {
    const [site] = await tx.insert(sites).values(values).returning();
    await tx.insert(siteSettings).values(
      SITE_SETTINGS.map((def) => ({
        siteId: site!.id,
        idString: def.idString,
        display: def.display,
        value: def.defaultValue,
      })),
    );
    return site!;
  });
}

export async function updateSiteName(db: Db, id: string, name: string): Promise<void> {
  await db.update(sites).set({ name, updatedAt: new Date() }).where(eq(sites.id, id));
}

/**
 * Deletes the site (its exhibits, hardware and settings cascade) unless one of its exhibits is
 * locked; the check and the delete share a transaction. Answers the locked exhibits, empty when
 * it was deleted.
 */
export async function deleteSiteUnlessLocked(db: Db, id: string): Promise<DeletedPlace> {
  return db.transaction(async (tx) => {
    await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, id)).for('update');
    const locked = await tx
      .select({ id: exhibits.id, name: exhibits.name })
      .from(exhibits)
      .where(and(eq(exhibits.siteId, id), eq(exhibits.manifestLocked, true)))
      .orderBy(asc(exhibits.name));
    if (locked.length) return { locked, exhibitIds: [], hardwareIds: [] };
    const exhibitIds = (await tx.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.siteId, id))).map((r) => r.id);
    const hardwareIds = (await tx.select({ id: hardware.id }).from(hardware).where(eq(hardware.siteId, id))).map((r) => r.id);
    await tx.delete(sites).where(eq(sites.id, id));
    return { locked, exhibitIds, hardwareIds };
  });
}
