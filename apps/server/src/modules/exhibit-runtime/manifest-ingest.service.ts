import { createHash } from 'node:crypto';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import {
  checkSettingValue,
  defaultSettingValue,
  type Manifest,
  type ManifestSetting,
  type SettingGroupDefinition,
  type SettingListDefinition,
  type SettingValue,
  type SettingValues,
} from '@plinth/shared';
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
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';

type FlatSetting = { def: ManifestSetting; listManifestId: string; groupManifestId: string | null; order: number };
type FlatList = { def: SettingListDefinition; groupManifestId: string | null; order: number };
type FlatGroup = { manifestId: string; parentManifestId: string | null; groupDisplay: string; order: number };

/** Canonical JSON (sorted keys), so equal manifests hash equally whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The structure hash the lock compares: every item, type, display, default and order. */
export function manifestStructureHash(manifest: Manifest): string {
  return createHash('sha256').update(canonical(manifest)).digest('hex');
}

function flatten(manifest: Manifest): { settings: FlatSetting[]; lists: FlatList[]; groups: FlatGroup[] } {
  const settings: FlatSetting[] = [];
  const lists: FlatList[] = [];
  const groups: FlatGroup[] = [];
  const addSettings = (defs: ManifestSetting[] | undefined, listManifestId: string, group: string | null) =>
    defs?.forEach((def, i) => settings.push({ def, listManifestId, groupManifestId: group, order: def.order ?? i }));
  const addLists = (defs: SettingListDefinition[] | undefined, group: string | null) =>
    defs?.forEach((def, i) => {
      lists.push({ def, groupManifestId: group, order: def.order ?? i });
      addSettings(def.settings, def.id, group);
    });
  const addGroups = (defs: SettingGroupDefinition[] | undefined, parent: string | null) =>
    defs?.forEach((g, i) => {
      groups.push({ manifestId: g.id, parentManifestId: parent, groupDisplay: g.groupDisplay ?? g.id, order: g.order ?? i });
      addSettings(g.settings, '', g.id);
      addLists(g.settingLists, g.id);
      addGroups(g.settingGroups, g.id);
    });
  addSettings(manifest.settings, '', null);
  addLists(manifest.settingLists, null);
  addGroups(manifest.settingGroups, null);
  return { settings, lists, groups };
}

/** Values of a list item made whole for the list's settings: valid values kept, others default. */
export function normalizeItemValues(defs: ManifestSetting[], values: Record<string, unknown>): SettingValues {
  const out: SettingValues = {};
  for (const def of defs) {
    const checked = def.id in values ? checkSettingValue(def, values[def.id]) : null;
    out[def.id] = checked?.ok ? checked.value : defaultSettingValue(def);
  }
  return out;
}

/**
 * Stores a manifest: items are created, updated and removed by manifest id, and saved values are
 * kept wherever they still fit their setting. A locked exhibit refuses a changed structure (406).
 * Answers whether anything changed.
 */
export async function ingestManifest(deps: AppDeps, exhibitId: string, manifest: Manifest): Promise<boolean> {
  const hash = manifestStructureHash(manifest);
  const [exhibit] = await deps.db
    .select({ manifestLocked: exhibits.manifestLocked, stored: exhibitManifests.structureHash })
    .from(exhibits)
    .leftJoin(exhibitManifests, eq(exhibitManifests.exhibitId, exhibits.id))
    .where(eq(exhibits.id, exhibitId));
  if (!exhibit) throw new AppError('NotFound', 'The exhibit does not exist.');
  if (exhibit.stored === hash) return false;
  if (exhibit.manifestLocked && exhibit.stored !== null) {
    throw new AppError('NotAcceptable', 'The exhibit is locked: its manifest structure cannot change. Unlock it in the console first.');
  }
  await deps.db.transaction(async (tx) => {
    await writeManifest(tx as unknown as Db, exhibitId, manifest);
    await tx
      .insert(exhibitManifests)
      .values({ exhibitId, manifest, structureHash: hash })
      .onConflictDoUpdate({ target: exhibitManifests.exhibitId, set: { manifest, structureHash: hash, updatedAt: new Date() } });
  });
  return true;
}

async function writeManifest(db: Db, exhibitId: string, manifest: Manifest): Promise<void> {
  const flat = flatten(manifest);

  // Statuses: the value survives unless the type changed.
  const oldStatuses = await db.select().from(exhibitStatuses).where(eq(exhibitStatuses.exhibitId, exhibitId));
  const statusIds = manifest.statuses.map((s) => s.id);
  await db
    .delete(exhibitStatuses)
    .where(and(eq(exhibitStatuses.exhibitId, exhibitId), statusIds.length ? notInArray(exhibitStatuses.manifestId, statusIds) : undefined));
  for (const [i, s] of manifest.statuses.entries()) {
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

  // Controls and their group items.
  const oldControls = await db.select().from(exhibitControls).where(eq(exhibitControls.exhibitId, exhibitId));
  const controlIds = manifest.controls.map((c) => c.id);
  await db
    .delete(exhibitControls)
    .where(and(eq(exhibitControls.exhibitId, exhibitId), controlIds.length ? notInArray(exhibitControls.manifestId, controlIds) : undefined));
  for (const [i, c] of manifest.controls.entries()) {
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
    const itemIds = items.map((item) => item.id);
    await db
      .delete(exhibitControlItems)
      .where(and(eq(exhibitControlItems.controlId, controlId), itemIds.length ? notInArray(exhibitControlItems.manifestId, itemIds) : undefined));
    for (const [j, item] of items.entries()) {
      const values = { display: item.display ?? item.id, order: item.order ?? j };
      await db
        .insert(exhibitControlItems)
        .values({ ...values, controlId, manifestId: item.id })
        .onConflictDoUpdate({ target: [exhibitControlItems.controlId, exhibitControlItems.manifestId], set: values });
    }
  }

  // Groups are navigation only: rewrite them.
  await db.delete(exhibitSettingGroups).where(eq(exhibitSettingGroups.exhibitId, exhibitId));
  if (flat.groups.length) await db.insert(exhibitSettingGroups).values(flat.groups.map((g) => ({ ...g, exhibitId })));

  // Settings: values kept when still valid for the new definition, else reset (new version).
  const oldSettings = await db.select().from(exhibitSettings).where(eq(exhibitSettings.exhibitId, exhibitId));
  const key = (list: string, id: string) => `${list}\u0000${id}`;
  const wanted = new Set(flat.settings.map((s) => key(s.listManifestId, s.def.id)));
  const stale = oldSettings.filter((o) => !wanted.has(key(o.listManifestId, o.manifestId))).map((o) => o.id);
  if (stale.length) await db.delete(exhibitSettings).where(inArray(exhibitSettings.id, stale));
  for (const s of flat.settings) {
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
    const kept = old.type === s.def.type ? checkSettingValue(s.def, old.value) : null;
    const value: SettingValue = kept?.ok ? kept.value : fallback;
    const changed = JSON.stringify(value) !== JSON.stringify(old.value);
    await db
      .update(exhibitSettings)
      .set({ ...row, value, version: changed ? old.version + 1 : old.version })
      .where(eq(exhibitSettings.id, old.id));
  }

  // Lists: kept by manifest id with their items; items made whole for the list's settings.
  const oldLists = await db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.exhibitId, exhibitId));
  const listIds = flat.lists.map((l) => l.def.id);
  await db
    .delete(exhibitSettingLists)
    .where(and(eq(exhibitSettingLists.exhibitId, exhibitId), listIds.length ? notInArray(exhibitSettingLists.manifestId, listIds) : undefined));
  for (const l of flat.lists) {
    const row = {
      groupManifestId: l.groupManifestId,
      listDisplay: l.def.listDisplay ?? l.def.id,
      enabledOpMode: l.def.enabledOpMode ?? 'none',
      order: l.order,
    };
    const old = oldLists.find((o) => o.manifestId === l.def.id);
    if (!old) {
      const [inserted] = await db
        .insert(exhibitSettingLists)
        .values({ ...row, exhibitId, manifestId: l.def.id })
        .returning({ id: exhibitSettingLists.id });
      const items = l.def.defaultItems ?? [];
      if (items.length) {
        await db.insert(exhibitSettingListItems).values(
          items.map((item, i) => ({
            listId: inserted!.id,
            listName: item.listName,
            order: i,
            values: normalizeItemValues(l.def.settings, item.values ?? {}),
          })),
        );
      }
      continue;
    }
    await db.update(exhibitSettingLists).set(row).where(eq(exhibitSettingLists.id, old.id));
    const items = await db.select().from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, old.id));
    for (const item of items) {
      const values = normalizeItemValues(l.def.settings, item.values as Record<string, unknown>);
      if (canonical(values) === canonical(item.values)) continue;
      await db
        .update(exhibitSettingListItems)
        .set({ values, version: item.version + 1, updatedAt: new Date() })
        .where(eq(exhibitSettingListItems.id, item.id));
    }
  }
}
