import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exhibits, hardware, organizations, sites } from '../../db/schema.js';

export type HardwareRecord = typeof hardware.$inferSelect & {
  siteName: string;
  organizationId: string;
  organizationName: string;
  exhibitName: string | null;
};

/** Which hardware a non-admin caller may see: of granted organizations or sites, or attached to granted exhibits. */
export type HardwareScope = { organizationIds: string[]; siteIds: string[]; exhibitIds: string[] } | null;

/** Filters of the list call; all given ones apply. */
export type HardwareFilter = { siteIds?: string[]; exhibitId?: string };

function scopeCondition(scope: HardwareScope): SQL | undefined {
  if (!scope) return undefined;
  const parts: SQL[] = [];
  if (scope.organizationIds.length) parts.push(inArray(sites.organizationId, scope.organizationIds));
  if (scope.siteIds.length) parts.push(inArray(hardware.siteId, scope.siteIds));
  if (scope.exhibitIds.length) parts.push(inArray(hardware.exhibitId, scope.exhibitIds));
  return parts.length ? or(...parts) : eq(hardware.id, '00000000-0000-0000-0000-000000000000');
}

async function selectHardware(db: Db, where: SQL | undefined): Promise<HardwareRecord[]> {
  const rows = await db
    .select({
      hardware,
      siteName: sites.name,
      organizationId: sites.organizationId,
      organizationName: organizations.name,
      exhibitName: exhibits.name,
    })
    .from(hardware)
    .innerJoin(sites, eq(sites.id, hardware.siteId))
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .leftJoin(exhibits, eq(exhibits.id, hardware.exhibitId))
    .where(where)
    .orderBy(asc(organizations.name), asc(sites.name), asc(hardware.name));
  return rows.map((r) => ({
    ...r.hardware,
    siteName: r.siteName,
    organizationId: r.organizationId,
    organizationName: r.organizationName,
    exhibitName: r.exhibitName,
  }));
}

export async function listHardwareRecords(db: Db, scope: HardwareScope, filter: HardwareFilter): Promise<HardwareRecord[]> {
  if (filter.siteIds && filter.siteIds.length === 0) return [];
  return selectHardware(
    db,
    and(
      scopeCondition(scope),
      filter.siteIds ? inArray(hardware.siteId, filter.siteIds) : undefined,
      filter.exhibitId ? eq(hardware.exhibitId, filter.exhibitId) : undefined,
    ),
  );
}

export async function findHardwareRecord(db: Db, id: string): Promise<HardwareRecord | undefined> {
  const [row] = await selectHardware(db, eq(hardware.id, id));
  return row;
}

export type HardwareRow = typeof hardware.$inferSelect;
/** A new hardware unit: its site and name; every other column may be given (the database has defaults). */
export type NewHardware = typeof hardware.$inferInsert;

/** Inserts a hardware unit; answers the stored row. */
export async function insertHardware(db: Db, values: NewHardware): Promise<HardwareRow> {
  const [row] = await db.insert(hardware).values(values).returning();
  return row!;
}

export async function updateHardwareRow(
  db: Db,
  id: string,
  values: Partial<Pick<typeof hardware.$inferInsert, 'name' | 'exhibitId'>>,
): Promise<void> {
  await db
    .update(hardware)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(hardware.id, id));
}

export async function deleteHardwareRow(db: Db, id: string): Promise<void> {
  await db.delete(hardware).where(eq(hardware.id, id));
}
