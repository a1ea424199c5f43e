import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { OpMode } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibits, organizations, sites } from '../../db/schema.js';

export type ExhibitRecord = typeof exhibits.$inferSelect & {
  siteName: string;
  organizationId: string;
  organizationName: string;
};

/** A follower or leader as the exhibit views show it. */
export type LinkedExhibit = {
  id: string;
  name: string;
  siteId: string;
  online: boolean;
  opMode: OpMode;
  leaderId: string | null;
};

/** Which exhibits a non-admin caller may see: those of granted organizations, sites, or the exhibits themselves. */
export type ExhibitScope = { organizationIds: string[]; siteIds: string[]; exhibitIds: string[] } | null;

function scopeCondition(scope: ExhibitScope): SQL | undefined {
  if (!scope) return undefined;
  const parts: SQL[] = [];
  if (scope.organizationIds.length) parts.push(inArray(sites.organizationId, scope.organizationIds));
  if (scope.siteIds.length) parts.push(inArray(exhibits.siteId, scope.siteIds));
  if (scope.exhibitIds.length) parts.push(inArray(exhibits.id, scope.exhibitIds));
  return parts.length ? or(...parts) : eq(exhibits.id, '00000000-0000-0000-0000-000000000000');
}

async function selectExhibits(db: Db, where: SQL | undefined): Promise<ExhibitRecord[]> {
  const rows = await db
    .select({
      exhibit: exhibits,
      siteName: sites.name,
      organizationId: sites.organizationId,
      organizationName: organizations.name,
    })
    .from(exhibits)
    .innerJoin(sites, eq(sites.id, exhibits.siteId))
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(where)
    .orderBy(asc(organizations.name), asc(sites.name), asc(exhibits.name));
  return rows.map((r) => ({ ...r.exhibit, siteName: r.siteName, organizationId: r.organizationId, organizationName: r.organizationName }));
}

/** Exhibits within the scope, optionally only those of some sites. */
export async function listExhibitRecords(db: Db, scope: ExhibitScope, siteIds?: string[]): Promise<ExhibitRecord[]> {
  if (siteIds && siteIds.length === 0) return [];
  return selectExhibits(db, and(scopeCondition(scope), siteIds ? inArray(exhibits.siteId, siteIds) : undefined));
}

export async function findExhibitRecord(db: Db, id: string): Promise<ExhibitRecord | undefined> {
  const [row] = await selectExhibits(db, eq(exhibits.id, id));
  return row;
}

/** Followers of the given leaders. */
export async function listFollowers(db: Db, leaderIds: string[]): Promise<LinkedExhibit[]> {
  if (!leaderIds.length) return [];
  return db
    .select({
      id: exhibits.id,
      name: exhibits.name,
      siteId: exhibits.siteId,
      online: exhibits.online,
      opMode: exhibits.opMode,
      leaderId: exhibits.leaderId,
    })
    .from(exhibits)
    .where(inArray(exhibits.leaderId, leaderIds))
    .orderBy(asc(exhibits.name));
}

export async function findLinkedExhibits(db: Db, ids: string[]): Promise<LinkedExhibit[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: exhibits.id,
      name: exhibits.name,
      siteId: exhibits.siteId,
      online: exhibits.online,
      opMode: exhibits.opMode,
      leaderId: exhibits.leaderId,
    })
    .from(exhibits)
    .where(inArray(exhibits.id, ids));
}

export type ExhibitRow = typeof exhibits.$inferSelect;
/** A new exhibit: its site and name; every other column may be given (the database has defaults). */
export type NewExhibit = typeof exhibits.$inferInsert;

/** Inserts an exhibit; answers the stored row. */
export async function insertExhibit(db: Db, values: NewExhibit): Promise<ExhibitRow> {
  const [row] = await db.insert(exhibits).values(values).returning();
  return row!;
}

export async function updateExhibitRow(
  db: Db,
  id: string,
  values: Partial<Pick<typeof exhibits.$inferInsert, 'name' | 'mqttPath' | 'leaderId' | 'manifestLocked'>>,
): Promise<void> {
  await db
    .update(exhibits)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(exhibits.id, id));
}

export async function deleteExhibitRow(db: Db, id: string): Promise<void> {
  await db.delete(exhibits).where(eq(exhibits.id, id));
}
