import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ORGANIZATION_SETTINGS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibits, hardware, organizationSettings, organizations, sites } from '../../db/schema.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type LockedExhibit = { id: string; name: string };
/** What a delete of a site or an organization did: refused for its locked exhibits, or the devices it removed. */
export type DeletedPlace = { locked: LockedExhibit[]; exhibitIds: string[]; hardwareIds: string[] };

/** Organizations by id (all when `ids` is null), sorted by name. */
export async function listOrganizationRows(db: Db, ids: string[] | null): Promise<OrganizationRow[]> {
  if (ids !== null && ids.length === 0) return [];
  const query = db.select().from(organizations);
  const filtered = ids === null ? query : query.where(inArray(organizations.id, ids));
  return filtered.orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id));
}

export async function findOrganizationRow(db: Db, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

/** Inserts the organization with the default settings in one transaction. */
export async function insertOrganization(db: Db, name: string): Promise<OrganizationRow> {
  return db.transaction(async (tx) => {
    const [org] = await tx.insert(organizations).values({ name }).returning();
    await tx.insert(organizationSettings).values(
      ORGANIZATION_SETTINGS.map((def) => ({
        organizationId: org!.id,
        idString: def.idString,
        display: def.display,
        value: def.defaultValue,
        inherited: def.inherited ?? false,
      })),
    );
    return org!;
  });
}

export async function updateOrganizationName(db: Db, id: string, name: string): Promise<OrganizationRow | undefined> {
  const [row] = await db
    .update(organizations)
    .set({ name, updatedAt: new Date() })
    .where(eq(organizations.id, id))
    .returning();
  return row;
}

/**
 * Deletes the organization (its sites, exhibits, hardware and settings cascade) unless one of
 * its exhibits is locked; the check and the delete share a transaction. Answers the locked
 * exhibits, empty when it was deleted.
 */
export async function deleteOrganizationUnlessLocked(db: Db, id: string): Promise<DeletedPlace> {
  return db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).for('update');
    const locked = await tx
      .select({ id: exhibits.id, name: exhibits.name })
      .from(exhibits)
      .innerJoin(sites, eq(sites.id, exhibits.siteId))
      .where(and(eq(sites.organizationId, id), eq(exhibits.manifestLocked, true)))
      .orderBy(asc(exhibits.name));
    if (locked.length) return { locked, exhibitIds: [], hardwareIds: [] };
    const inOrganization = tx.select({ id: sites.id }).from(sites).where(eq(sites.organizationId, id));
    const exhibitIds = (await tx.select({ id: exhibits.id }).from(exhibits).where(inArray(exhibits.siteId, inOrganization))).map((r) => r.id);
    const hardwareIds = (await tx.select({ id: hardware.id }).from(hardware).where(inArray(hardware.siteId, inOrganization))).map((r) => r.id);
    await tx.delete(organizations).where(eq(organizations.id, id));
    return { locked, exhibitIds, hardwareIds };
  });
}
