import { and, eq, inArray, max, ne, notInArray, sql } from 'drizzle-orm';
import type { SettingValue, SettingValues } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitSettingListItems, exhibitSettingLists, exhibitSettings } from '../../db/schema.js';
import { byIdOrManifestId, type SettingListItemRow, type SettingListRow, type SettingRow } from './exhibit-runtime.repository.js';

/**
 * Settings, setting lists and their items: the desired state the console saves (each save a new
 * `version`) and the versions the exhibit acknowledges as applied (`appliedVersion`).
 */

/**
 * Settings named by row id or manifest id: the plain ones (`inList` false) or those of any list
 * (the caller tells them apart by list).
 */
export async function listSettingCandidates(db: Db, exhibitId: string, key: { settingKey: string; inList: boolean }): Promise<SettingRow[]> {
  return db
    .select()
    .from(exhibitSettings)
    .where(
      and(
        eq(exhibitSettings.exhibitId, exhibitId),
        byIdOrManifestId(exhibitSettings, key.settingKey),
        key.inList ? ne(exhibitSettings.listManifestId, '') : eq(exhibitSettings.listManifestId, ''),
      ),
    );
}

/** Every setting list of the exhibit (to tell settings of the same id in several lists apart). */
export async function listSettingLists(db: Db, exhibitId: string): Promise<SettingListRow[]> {
  return db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.exhibitId, exhibitId));
}

/**
 * Saves a plain setting's value as a new version, with a StrapiContent setting's chosen entry
 * (`content`; left as it is when undefined); answers the versions, or nothing when the setting is gone.
 */
export async function updateSettingValue(
  db: Db,
  exhibitId: string,
  change: { manifestId: string; value: SettingValue; content?: Record<string, unknown> | null },
): Promise<{ version: number; appliedVersion: number } | undefined> {
  const content = change.content === undefined ? {} : { content: change.content };
  const [row] = await db
    .update(exhibitSettings)
    .set({ value: change.value, ...content, version: sql`${exhibitSettings.version} + 1`, updatedAt: new Date() })
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, ''), eq(exhibitSettings.manifestId, change.manifestId)))
    .returning({ version: exhibitSettings.version, appliedVersion: exhibitSettings.appliedVersion });
  return row;
}

/** A setting list of the exhibit by row id or manifest id. */
export async function findSettingList(db: Db, exhibitId: string, listKey: string): Promise<SettingListRow | undefined> {
  const [list] = await db
    .select()
    .from(exhibitSettingLists)
    .where(and(eq(exhibitSettingLists.exhibitId, exhibitId), byIdOrManifestId(exhibitSettingLists, listKey)));
  return list;
}

/** The definitions of a list's settings (the template every item is made whole against). */
export async function listTemplateDefinitions(db: Db, exhibitId: string, listManifestId: string): Promise<unknown[]> {
  const templates = await db
    .select({ definition: exhibitSettings.definition })
    .from(exhibitSettings)
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, listManifestId)));
  return templates.map((t) => t.definition);
}

/** A list with its items (what the exhibit receives after any change to it). */
export async function findListWithItems(db: Db, listId: string): Promise<{ list: SettingListRow; items: SettingListItemRow[] } | undefined> {
  const [list] = await db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.id, listId));
  if (!list) return undefined;
  return { list, items: await listListItems(db, listId) };
}

/** The items of one list, in no particular order. */
export async function listListItems(db: Db, listId: string): Promise<SettingListItemRow[]> {
  return db.select().from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, listId));
}

/** A list's item by its name (unique within the list). */
export async function findListItem(db: Db, listId: string, listName: string): Promise<SettingListItemRow | undefined> {
  const [item] = await db
    .select()
    .from(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, listId), eq(exhibitSettingListItems.listName, listName)));
  return item;
}

/** A list item's new values, stored under the version the caller computed. */
export async function updateListItem(db: Db, itemId: string, set: { values: SettingValues; version: number }): Promise<void> {
  await db
    .update(exhibitSettingListItems)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(exhibitSettingListItems.id, itemId));
}

/** Adds an item at the end of its list. */
export async function insertListItem(db: Db, item: { listId: string; listName: string; values: SettingValues }): Promise<void> {
  const [last] = await db
    .select({ value: max(exhibitSettingListItems.order) })
    .from(exhibitSettingListItems)
    .where(eq(exhibitSettingListItems.listId, item.listId));
  await db.insert(exhibitSettingListItems).values({ ...item, order: (last?.value ?? -1) + 1 });
}

/** Gives the named items the orders 0, 1, 2… in one transaction, each as a new version. */
export async function reorderListItems(db: Db, listId: string, names: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [index, name] of names.entries()) {
      await tx
        .update(exhibitSettingListItems)
        .set({ order: index, version: sql`${exhibitSettingListItems.version} + 1`, updatedAt: new Date() })
        .where(and(eq(exhibitSettingListItems.listId, listId), eq(exhibitSettingListItems.listName, name)));
    }
  });
}

/** Deletes an item; answers false when the list has no item of that name. */
export async function deleteListItemRow(db: Db, listId: string, listName: string): Promise<boolean> {
  const deleted = await db
    .delete(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, listId), eq(exhibitSettingListItems.listName, listName)))
    .returning({ id: exhibitSettingListItems.id });
  return deleted.length > 0;
}

/** One item of a leader's list as a follower's list receives it. */
export type CopiedListItem = { listName: string; order: number; values: SettingValues };

/**
 * Makes a follower's list hold exactly the leader's items, in one transaction: items the leader
 * has not are deleted, the others updated (a new version) or inserted. `existing` are the
 * follower's items as read before.
 */
export async function replaceListItems(db: Db, listId: string, copy: { items: CopiedListItem[]; existing: SettingListItemRow[] }): Promise<void> {
  await db.transaction(async (tx) => {
    const names = copy.items.map((i) => i.listName);
    await tx
      .delete(exhibitSettingListItems)
      .where(and(eq(exhibitSettingListItems.listId, listId), names.length ? notInArray(exhibitSettingListItems.listName, names) : undefined));
    for (const item of copy.items) {
      const existing = copy.existing.find((d) => d.listName === item.listName);
      if (existing) {
        await tx
          .update(exhibitSettingListItems)
          .set({ values: item.values, order: item.order, version: existing.version + 1, updatedAt: new Date() })
          .where(eq(exhibitSettingListItems.id, existing.id));
      } else {
        await tx.insert(exhibitSettingListItems).values({ listId, listName: item.listName, order: item.order, values: item.values });
      }
    }
  });
}

/**
 * The exhibit applied a plain setting's version: `appliedVersion` moves up to it (never past the
 * saved version, never down). Answers the setting's value and versions after the change.
 */
export async function acknowledgeSetting(
  db: Db,
  exhibitId: string,
  ack: { id: string; version: number },
): Promise<{ value: SettingValue | null; version: number; appliedVersion: number; previousAppliedVersion: number } | undefined> {
  const [row] = await db
    .update(exhibitSettings)
    .set({ appliedVersion: sql`least(${exhibitSettings.version}, greatest(${exhibitSettings.appliedVersion}, ${ack.version}))` })
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, ''), eq(exhibitSettings.manifestId, ack.id)))
    .returning({
      value: exhibitSettings.value,
      version: exhibitSettings.version,
      appliedVersion: exhibitSettings.appliedVersion,
      // The statement's own snapshot still sees the row as it was: the version applied before this ack.
      previousAppliedVersion: sql<number>`(select s.applied_version from exhibit_settings s where s.id = exhibit_settings.id)`.mapWith(Number),
    });
  return row;
}

/** The exhibit applied a list item's version; answers whether such an item exists. */
export async function acknowledgeListItem(db: Db, exhibitId: string, ack: { listId: string; listName: string; version: number }): Promise<boolean> {
  const lists = await db
    .select({ id: exhibitSettingLists.id })
    .from(exhibitSettingLists)
    .where(and(eq(exhibitSettingLists.exhibitId, exhibitId), eq(exhibitSettingLists.manifestId, ack.listId)));
  if (!lists.length) return false;
  const updated = await db
    .update(exhibitSettingListItems)
    .set({ appliedVersion: sql`least(${exhibitSettingListItems.version}, greatest(${exhibitSettingListItems.appliedVersion}, ${ack.version}))` })
    .where(and(inArray(exhibitSettingListItems.listId, lists.map((l) => l.id)), eq(exhibitSettingListItems.listName, ack.listName)))
    .returning({ id: exhibitSettingListItems.id });
  return updated.length > 0;
}
