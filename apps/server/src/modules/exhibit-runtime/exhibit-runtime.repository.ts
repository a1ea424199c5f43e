import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Id, type OpMode } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import {
  exhibitControlItems,
  exhibitControls,
  exhibitManifests,
  exhibits,
  exhibitSettingGroups,
  exhibitSettingListItems,
  exhibitSettingLists,
  exhibitSettings,
  exhibitStatuses,
} from '../../db/schema.js';

export type StatusRow = typeof exhibitStatuses.$inferSelect;
export type ControlRow = typeof exhibitControls.$inferSelect;
export type ControlItemRow = typeof exhibitControlItems.$inferSelect;
export type SettingGroupRow = typeof exhibitSettingGroups.$inferSelect;
export type SettingRow = typeof exhibitSettings.$inferSelect;
export type SettingListRow = typeof exhibitSettingLists.$inferSelect;
export type SettingListItemRow = typeof exhibitSettingListItems.$inferSelect;

/** Every manifest row of one exhibit, read in one go. */
export type ExhibitRuntimeRows = {
  statuses: StatusRow[];
  controls: ControlRow[];
  controlItems: ControlItemRow[];
  groups: SettingGroupRow[];
  lists: SettingListRow[];
  listItems: SettingListItemRow[];
  settings: SettingRow[];
};

/** What the runtime calls need to know of the exhibit itself. */
export type ExhibitState = { id: string; opMode: OpMode; online: boolean; leaderId: string | null; manifestLocked: boolean };

/**
 * A manifest item named by its row id or its manifest id (the console uses both). Only a key
 * shaped like an id is compared with the uuid column, which refuses anything else.
 */
export function byIdOrManifestId(table: { id: AnyPgColumn; manifestId: AnyPgColumn }, key: string) {
  return Id.safeParse(key).success ? sql`(${table.id} = ${key} or ${table.manifestId} = ${key})` : eq(table.manifestId, key);
}

/** The exhibit's op mode, online flag, leader and lock, or nothing when it does not exist. */
export async function findExhibitState(db: Db, exhibitId: string): Promise<ExhibitState | undefined> {
  const [row] = await db
    .select({ id: exhibits.id, opMode: exhibits.opMode, online: exhibits.online, leaderId: exhibits.leaderId, manifestLocked: exhibits.manifestLocked })
    .from(exhibits)
    .where(eq(exhibits.id, exhibitId));
  return row;
}

/** When the exhibit last sent a manifest, or null when it never did. */
export async function findManifestUpdatedAt(db: Db, exhibitId: string): Promise<Date | null> {
  const [stored] = await db.select({ updatedAt: exhibitManifests.updatedAt }).from(exhibitManifests).where(eq(exhibitManifests.exhibitId, exhibitId));
  return stored?.updatedAt ?? null;
}

/** Every manifest row of the exhibit, each kind in its manifest order (two round trips). */
export async function loadRuntimeRows(db: Db, exhibitId: string): Promise<ExhibitRuntimeRows> {
  const [statuses, controls, groups, lists, settings] = await Promise.all([
    db.select().from(exhibitStatuses).where(eq(exhibitStatuses.exhibitId, exhibitId)).orderBy(asc(exhibitStatuses.order)),
    db.select().from(exhibitControls).where(eq(exhibitControls.exhibitId, exhibitId)).orderBy(asc(exhibitControls.order)),
    db.select().from(exhibitSettingGroups).where(eq(exhibitSettingGroups.exhibitId, exhibitId)).orderBy(asc(exhibitSettingGroups.order)),
    db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.exhibitId, exhibitId)).orderBy(asc(exhibitSettingLists.order)),
    db.select().from(exhibitSettings).where(eq(exhibitSettings.exhibitId, exhibitId)).orderBy(asc(exhibitSettings.order)),
  ]);
  const [controlItems, listItems] = await Promise.all([
    controls.length
      ? db.select().from(exhibitControlItems).where(inArray(exhibitControlItems.controlId, controls.map((c) => c.id))).orderBy(asc(exhibitControlItems.order))
      : Promise.resolve([]),
    lists.length
      ? db.select().from(exhibitSettingListItems).where(inArray(exhibitSettingListItems.listId, lists.map((l) => l.id))).orderBy(asc(exhibitSettingListItems.order))
      : Promise.resolve([]),
  ]);
  return { statuses, controls, controlItems, groups, lists, listItems, settings };
}

/** A control of the exhibit by row id or manifest id. */
export async function findControl(db: Db, exhibitId: string, controlKey: string): Promise<ControlRow | undefined> {
  const [control] = await db.select().from(exhibitControls).where(and(eq(exhibitControls.exhibitId, exhibitId), byIdOrManifestId(exhibitControls, controlKey)));
  return control;
}

/** The manifest id of a group control's item named by row id or manifest id. */
export async function findControlItemManifestId(db: Db, controlId: string, itemKey: string): Promise<string | undefined> {
  const [row] = await db
    .select({ manifestId: exhibitControlItems.manifestId })
    .from(exhibitControlItems)
    .where(and(eq(exhibitControlItems.controlId, controlId), byIdOrManifestId(exhibitControlItems, itemKey)));
  return row?.manifestId;
}

/** Stores the op mode (the console's or the exhibit's own switch). */
export async function updateOpMode(db: Db, exhibitId: string, mode: OpMode): Promise<void> {
  await db.update(exhibits).set({ opMode: mode, updatedAt: new Date() }).where(eq(exhibits.id, exhibitId));
}

/** Exhibits that take their settings from this leader. */
export async function listFollowerIds(db: Db, leaderId: string): Promise<string[]> {
  const rows = await db.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.leaderId, leaderId));
  return rows.map((row) => row.id);
}

/** A status's row id and type by its manifest id (what checking and storing a value needs). */
export async function findStatus(db: Db, exhibitId: string, manifestId: string): Promise<{ id: string; type: string } | undefined> {
  const [status] = await db
    .select({ id: exhibitStatuses.id, type: exhibitStatuses.type })
    .from(exhibitStatuses)
    .where(and(eq(exhibitStatuses.exhibitId, exhibitId), eq(exhibitStatuses.manifestId, manifestId)));
  return status;
}

/** A status's live value to store, as the exhibit set it at `at`. */
export type StatusValueWrite = { statusId: string; value: string | number | null; at: Date };

/**
 * Stores many statuses' live values in one statement (the exhibit status ingest's writes, batched:
 * the newest per status). A status removed from the manifest meanwhile is skipped.
 */
export async function writeStatusValues(db: Db, writes: StatusValueWrite[]): Promise<void> {
  if (!writes.length) return;
  const rows = writes.map((w) => sql`(${w.statusId}::uuid, ${w.value === null ? null : JSON.stringify(w.value)}::jsonb, ${w.at.toISOString()}::timestamptz)`);
  await db.execute(sql`
    update exhibit_statuses as s set value = v.val, value_updated_at = v.at
    from (values ${sql.join(rows, sql`, `)}) as v(id, val, at)
    where s.id = v.id`);
}
