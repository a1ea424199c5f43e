import { and, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import { defaultSettingValue, type Manifest } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitControlItems, exhibitControls, exhibitManifests, exhibits, exhibitSettingGroups, exhibitSettingListItems, exhibitSettingLists, exhibitSettings, exhibitStatuses } from '../../db/schema.js';
import { canonicalJson, flattenManifest, keptSettingValue, normalizeItemValues, type FlatList, type FlatManifest } from './manifest-structure.js';

/**
 * The rows a manifest becomes. Items are created, updated and removed by manifest id within the
 * exhibit, so a new manifest updates them in place and saved values survive where they still fit.
 */

/** Whether the exhibit is locked, and the structure hash of its stored manifest (null before the first). */
export async function findManifestLock(db: Db, exhibitId: string): Promise<{ manifestLocked: boolean; stored: string | null } | undefined> {
  const [exhibit] = await db
    .select({ manifestLocked: exhibits.manifestLocked, stored: exhibitManifests.structureHash })
    .from(exhibits)
    .leftJoin(exhibitManifests, eq(exhibitManifests.exhibitId, exhibits.id))
    .where(eq(exhibits.id, exhibitId));
  return exhibit;
}

/** Writes the manifest's rows and the manifest itself with its hash, in one transaction. */
export async function storeManifest(db: Db, exhibitId: string, stored: { manifest: Manifest; structureHash: string }): Promise<void> {
  const { manifest, structureHash } = stored;
  await db.transaction(async (tx) => {
    await writeManifestRows(tx as unknown as Db, exhibitId, manifest);
    await tx
      .insert(exhibitManifests)
      .values({ exhibitId, manifest, structureHash })
      .onConflictDoUpdate({ target: exhibitManifests.exhibitId, set: { manifest, structureHash, updatedAt: new Date() } });
  });
}

async function writeManifestRows(db: Db, exhibitId: string, manifest: Manifest): Promise<void> {
  const flat = flattenManifest(manifest);
  await writeStatuses(db, exhibitId, manifest.statuses);
  await writeControls(db, exhibitId, manifest.controls);
  // Groups are navigation only: rewrite them.
  await db.delete(exhibitSettingGroups).where(eq(exhibitSettingGroups.exhibitId, exhibitId));
  if (flat.groups.length) await db.insert(exhibitSettingGroups).values(flat.groups.map((g) => ({ ...g, exhibitId })));
  await writeSettings(db, exhibitId, flat.settings);
  await writeLists(db, exhibitId, flat.lists);
}

/** Tables of manifest items, kept by manifest id within their exhibit (or control). */
type ManifestItemTable = typeof exhibitStatuses | typeof exhibitControls | typeof exhibitControlItems | typeof exhibitSettingLists;

/** Deletes the items under `scope` whose manifest id the new manifest no longer has. */
async function deleteItemsNotIn(db: Db, table: ManifestItemTable, keep: { scope: SQL; manifestIds: string[] }): Promise<void> {
  const { scope, manifestIds } = keep;
  await db.delete(table).where(and(scope, manifestIds.length ? notInArray(table.manifestId, manifestIds) : undefined));
}

/** Statuses: the value survives unless the type changed. */
async function writeStatuses(db: Db, exhibitId: string, statuses: Manifest['statuses']): Promise<void> {
  const oldStatuses = await db.select().from(exhibitStatuses).where(eq(exhibitStatuses.exhibitId, exhibitId));
  await deleteItemsNotIn(db, exhibitStatuses, { scope: eq(exhibitStatuses.exhibitId, exhibitId), manifestIds: statuses.map((s) => s.id) });
  for (const [i, s] of statuses.entries()) {
    const old = oldStatuses.find((o) => o.manifestId === s.id);
    const row = { type: s.type, display: s.display ?? s.id, defaultValue: s.default ?? null, order: s.order ?? i };
    if (old) {
      await db
        .update(exhibitStatuses)
        .set({ ...row, value: old.type === s.type ? old.value : (s.default ?? null) })
        .where(eq(exhibitStatuses.id, old.id));
    } else {
      await db.insert(exhibitStatuses).values({ ...row, exhibitId, manifestId: s.id, value: s.default ?? null });
    }
  }
}

/** Controls and their group items. */
async function writeControls(db: Db, exhibitId: string, controls: Manifest['controls']): Promise<void> {
  const oldControls = await db.select().from(exhibitControls).where(eq(exhibitControls.exhibitId, exhibitId));
  await deleteItemsNotIn(db, exhibitControls, { scope: eq(exhibitControls.exhibitId, exhibitId), manifestIds: controls.map((c) => c.id) });
  for (const [i, c] of controls.entries()) {
    const row = { type: c.type, display: c.display ?? c.id, enabledOpMode: c.enabledOpMode ?? 'none', order: c.order ?? i };
    const old = oldControls.find((o) => o.manifestId === c.id);
    let controlId: string;
    if (old) {
      await db.update(exhibitControls).set(row).where(eq(exhibitControls.id, old.id));
      controlId = old.id;
    } else {
      const [inserted] = await db.insert(exhibitControls).values({ ...row, exhibitId, manifestId: c.id }).returning({ id: exhibitControls.id });
      controlId = inserted!.id;
    }
    const items = c.items ?? [];
    await deleteItemsNotIn(db, exhibitControlItems, { scope: eq(exhibitControlItems.controlId, controlId), manifestIds: items.map((item) => item.id) });
    for (const [j, item] of items.entries()) {
      const values = { display: item.display ?? item.id, order: item.order ?? j };
      await db
        .insert(exhibitControlItems)
        .values({ ...values, controlId, manifestId: item.id })
        .onConflictDoUpdate({ target: [exhibitControlItems.controlId, exhibitControlItems.manifestId], set: values });
    }
  }
}

/** Settings: values kept when still valid for the new definition, else reset (new version). */
async function writeSettings(db: Db, exhibitId: string, settings: FlatManifest['settings']): Promise<void> {
  const oldSettings = await db.select().from(exhibitSettings).where(eq(exhibitSettings.exhibitId, exhibitId));
  const key = (list: string, id: string) => `${list}\u0000${id}`;
  const wanted = new Set(settings.map((s) => key(s.listManifestId, s.def.id)));
  const stale = oldSettings.filter((o) => !wanted.has(key(o.listManifestId, o.manifestId))).map((o) => o.id);
  if (stale.length) await db.delete(exhibitSettings).where(inArray(exhibitSettings.id, stale));
  for (const s of settings) {
    const old = oldSettings.find((o) => o.listManifestId === s.listManifestId && o.manifestId === s.def.id);
    const fallback = defaultSettingValue(s.def);
    const row = {
      groupManifestId: s.groupManifestId,
      type: s.def.type,
      display: s.def.display ?? s.def.id,
      definition: s.def,
      defaultValue: fallback,
      enabledOpMode: s.def.enabledOpMode ?? 'none',
      order: s.order,
      updatedAt: new Date(),
    };
    if (!old) {
      await db.insert(exhibitSettings).values({ ...row, exhibitId, manifestId: s.def.id, listManifestId: s.listManifestId, value: fallback });
      continue;
    }
    const value = keptSettingValue(s.def, old);
    const changed = JSON.stringify(value) !== JSON.stringify(old.value);
    await db
      .update(exhibitSettings)
      .set({ ...row, value, version: changed ? old.version + 1 : old.version })
      .where(eq(exhibitSettings.id, old.id));
  }
}

/** Lists: kept by manifest id with their items; items made whole for the list's settings. */
async function writeLists(db: Db, exhibitId: string, lists: FlatList[]): Promise<void> {
  const oldLists = await db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.exhibitId, exhibitId));
  await deleteItemsNotIn(db, exhibitSettingLists, { scope: eq(exhibitSettingLists.exhibitId, exhibitId), manifestIds: lists.map((l) => l.def.id) });
  for (const l of lists) {
    const row = {
      groupManifestId: l.groupManifestId,
      listDisplay: l.def.listDisplay ?? l.def.id,
      enabledOpMode: l.def.enabledOpMode ?? 'none',
      order: l.order,
    };
    const old = oldLists.find((o) => o.manifestId === l.def.id);
    if (old) {
      await db.update(exhibitSettingLists).set(row).where(eq(exhibitSettingLists.id, old.id));
      await normalizeListItems(db, old.id, l);
    } else {
      const [inserted] = await db
        .insert(exhibitSettingLists)
        .values({ ...row, exhibitId, manifestId: l.def.id })
        .returning({ id: exhibitSettingLists.id });
      await insertDefaultItems(db, inserted!.id, l);
    }
  }
}

/** A new list starts with the items its definition names. */
async function insertDefaultItems(db: Db, listId: string, list: FlatList): Promise<void> {
  const items = list.def.defaultItems ?? [];
  if (!items.length) return;
  await db.insert(exhibitSettingListItems).values(
    items.map((item, i) => ({ listId, listName: item.listName, order: i, values: normalizeItemValues(list.def.settings, item.values ?? {}) })),
  );
}

/** A kept list's items made whole for its new settings; an item that changes gets a new version. */
async function normalizeListItems(db: Db, listId: string, list: FlatList): Promise<void> {
  const items = await db.select().from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, listId));
  for (const item of items) {
    const values = normalizeItemValues(list.def.settings, item.values as Record<string, unknown>);
    if (canonicalJson(values) === canonicalJson(item.values)) continue;
    await db
      .update(exhibitSettingListItems)
      .set({ values, version: item.version + 1, updatedAt: new Date() })
      .where(eq(exhibitSettingListItems.id, item.id));
  }
}
