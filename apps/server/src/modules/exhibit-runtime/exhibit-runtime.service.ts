import { and, eq, inArray, max, ne, notInArray, sql } from 'drizzle-orm';
import {
  checkSettingValue,
  topicFor,
  type ExhibitManifest,
  type LogLevel,
  type ManifestResponse,
  type ManifestSetting,
  type OpMode,
  type SettingValue,
} from '@plinth/shared';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  exhibitControlItems,
  exhibitControls,
  exhibitLogs,
  exhibitManifests,
  exhibitReportEvents,
  exhibits,
  exhibitSettingListItems,
  exhibitSettingLists,
  exhibitSettings,
  exhibitStatuses,
} from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { normalizeItemValues } from './manifest-ingest.service.js';
import { loadRuntimeRows, presentManifest, presentSdkList, presentSync, type ManifestRights } from './manifest.presenter.js';

type ExhibitState = { id: string; opMode: OpMode; online: boolean; leaderId: string | null; manifestLocked: boolean };

async function getExhibitState(db: Db, exhibitId: string): Promise<ExhibitState> {
  const [row] = await db
    .select({ id: exhibits.id, opMode: exhibits.opMode, online: exhibits.online, leaderId: exhibits.leaderId, manifestLocked: exhibits.manifestLocked })
    .from(exhibits)
    .where(eq(exhibits.id, exhibitId));
  if (!row) throw new AppError('NotFound', 'The exhibit does not exist.');
  return row;
}

/** GET .../manifest: the manifest with live values; the op mode reads Off while offline. */
export async function getManifest(deps: AppDeps, exhibitId: string, rights: ManifestRights): Promise<ManifestResponse> {
  const state = await getExhibitState(deps.db, exhibitId);
  const [rows, [stored]] = await Promise.all([
    loadRuntimeRows(deps.db, exhibitId),
    deps.db.select({ updatedAt: exhibitManifests.updatedAt }).from(exhibitManifests).where(eq(exhibitManifests.exhibitId, exhibitId)),
  ]);
  const manifest: ExhibitManifest = presentManifest(rows, exhibitId, rights);
  return {
    manifest,
    opMode: state.online ? state.opMode : 'Off',
    online: state.online,
    manifestLocked: state.manifestLocked,
    updatedAt: stored?.updatedAt.toISOString() ?? null,
  };
}

/** Sends every current value (and the op mode) to the exhibit, if it is online (on any node). */
export async function pushSync(deps: AppDeps, exhibitId: string): Promise<void> {
  const [state, rows] = await Promise.all([getExhibitState(deps.db, exhibitId), loadRuntimeRows(deps.db, exhibitId)]);
  if (!state.online) return;
  deps.exhibitGateway.send(exhibitId, presentSync(rows, state.opMode));
}

/**
 * Fires a control; the exhibit must be online, as the database says, whichever node holds its
 * connection (409 ExhibitOffline otherwise).
 */
export async function fireControl(deps: AppDeps, exhibitId: string, controlId: string, itemId: string | undefined): Promise<void> {
  const state = await getExhibitState(deps.db, exhibitId);
  const [control] = await deps.db
    .select()
    .from(exhibitControls)
    .where(and(eq(exhibitControls.exhibitId, exhibitId), byIdOrManifestId(exhibitControls, controlId)));
  if (!control) throw new AppError('NotFound', `The control "${controlId}" does not exist.`);
  let item: string | undefined;
  if (control.type === 'Group') {
    if (!itemId) throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" is a group; name one of its items`);
    const [row] = await deps.db
      .select({ manifestId: exhibitControlItems.manifestId })
      .from(exhibitControlItems)
      .where(and(eq(exhibitControlItems.controlId, control.id), byIdOrManifestId(exhibitControlItems, itemId)));
    if (!row) throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" has no item "${itemId}"`);
    item = row.manifestId;
  } else if (itemId) {
    throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" has no items`);
  }
  if (control.enabledOpMode !== 'none' && state.online && control.enabledOpMode !== state.opMode) {
    throw new AppError('Conflict', `The control "${control.display}" is only available when the op mode is ${control.enabledOpMode}.`);
  }
  if (!state.online) throw new AppError('ExhibitOffline');
  deps.exhibitGateway.send(exhibitId, { type: 'control', id: control.manifestId, ...(item ? { itemId: item } : {}) });
}

function byIdOrManifestId(table: { id: AnyPgColumn; manifestId: AnyPgColumn }, key: string) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key);
  return uuid ? sql`(${table.id} = ${key} or ${table.manifestId} = ${key})` : eq(table.manifestId, key);
}

function assertNotFollower(state: ExhibitState): void {
  if (state.leaderId) throw new AppError('Conflict', 'A follower exhibit takes its settings from its leader.');
}

type SettingTarget = { setting: typeof exhibitSettings.$inferSelect; list: typeof exhibitSettingLists.$inferSelect | null };

async function findSetting(db: Db, exhibitId: string, settingKey: string, listId: string | undefined, listName: string | undefined): Promise<SettingTarget> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(settingKey);
  const candidates = await db
    .select()
    .from(exhibitSettings)
    .where(
      and(
        eq(exhibitSettings.exhibitId, exhibitId),
        uuid ? sql`(${exhibitSettings.id} = ${settingKey} or ${exhibitSettings.manifestId} = ${settingKey})` : eq(exhibitSettings.manifestId, settingKey),
        listName === undefined ? eq(exhibitSettings.listManifestId, '') : ne(exhibitSettings.listManifestId, ''),
      ),
    );
  const lists = listName === undefined ? [] : await db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.exhibitId, exhibitId));
  const matching = candidates.filter((s) => {
    if (listName === undefined || !listId) return true;
    const list = lists.find((l) => l.manifestId === s.listManifestId);
    return list?.id === listId || list?.manifestId === listId;
  });
  if (matching.length === 0) throw new AppError('NotFound', `The setting "${settingKey}" does not exist.`);
  if (matching.length > 1) throw new AppError('ValidationError', `listId: the setting "${settingKey}" is in several lists; name the list`);
  const setting = matching[0]!;
  const list = lists.find((l) => l.manifestId === setting.listManifestId) ?? null;
  return { setting, list };
}

/**
 * Saves a setting value as desired state: stored with a new version, pushed to the exhibit if it
 * is connected (it acknowledges when applied), published to consoles, copied to followers.
 */
export async function saveSetting(
  deps: AppDeps,
  exhibitId: string,
  settingKey: string,
  rawValue: unknown,
  where: { listName?: string; listId?: string } = {},
): Promise<void> {
  const state = await getExhibitState(deps.db, exhibitId);
  assertNotFollower(state);
  const target = await findSetting(deps.db, exhibitId, settingKey, where.listId, where.listName);
  const checked = checkSettingValue(target.setting.definition as ManifestSetting, rawValue);
  if (!checked.ok) throw new AppError('ValidationError', checked.message);
  if (target.list) await saveListItemValue(deps, exhibitId, target, where.listName!, checked.value);
  else await savePlainSetting(deps, exhibitId, target.setting.manifestId, checked.value);
  await copyToFollowers(deps, exhibitId, { settingId: target.setting.manifestId, listId: target.list?.manifestId });
}

async function savePlainSetting(deps: AppDeps, exhibitId: string, manifestId: string, value: SettingValue): Promise<void> {
  const [row] = await deps.db
    .update(exhibitSettings)
    .set({ value, version: sql`${exhibitSettings.version} + 1`, updatedAt: new Date() })
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, ''), eq(exhibitSettings.manifestId, manifestId)))
    .returning({ version: exhibitSettings.version, appliedVersion: exhibitSettings.appliedVersion });
  if (!row) return;
  deps.exhibitGateway.send(exhibitId, { type: 'setting', id: manifestId, value, version: row.version });
  deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.setting', exhibitId, settingId: manifestId, settingValue: value, applied: false });
}

async function saveListItemValue(deps: AppDeps, exhibitId: string, target: SettingTarget, listName: string, value: SettingValue): Promise<void> {
  const list = target.list!;
  const [item] = await deps.db
    .select()
    .from(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, list.id), eq(exhibitSettingListItems.listName, listName)));
  if (!item) throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${listName}".`);
  const values = { ...(item.values as Record<string, SettingValue>), [target.setting.manifestId]: value };
  await deps.db
    .update(exhibitSettingListItems)
    .set({ values, version: item.version + 1, updatedAt: new Date() })
    .where(eq(exhibitSettingListItems.id, item.id));
  await listChanged(deps, exhibitId, list.id);
}

/** After any change to a list: the exhibit gets the whole list, consoles a manifest notice. */
async function listChanged(deps: AppDeps, exhibitId: string, listId: string): Promise<void> {
  const [list] = await deps.db.select().from(exhibitSettingLists).where(eq(exhibitSettingLists.id, listId));
  if (!list) return;
  const items = await deps.db.select().from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, listId));
  deps.exhibitGateway.send(exhibitId, presentSdkList(list, items));
  deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.manifest', exhibitId });
}

/** PUT .../strapi-content/{settingId}: the content id chosen for a StrapiContent setting. */
export async function saveStrapiContent(deps: AppDeps, exhibitId: string, settingKey: string, contentId: string | number | null): Promise<void> {
  const target = await findSetting(deps.db, exhibitId, settingKey, undefined, undefined);
  if (target.setting.type !== 'StrapiContent') {
    throw new AppError('ValidationError', `Setting "${target.setting.manifestId}" is not a StrapiContent setting`);
  }
  await saveSetting(deps, exhibitId, target.setting.manifestId, contentId === null ? null : String(contentId));
}

/** Sets the op mode from the console (pushed to the exhibit) or from the exhibit itself. */
export async function setOpMode(deps: AppDeps, exhibitId: string, mode: OpMode, from: 'console' | 'exhibit'): Promise<void> {
  await deps.db.update(exhibits).set({ opMode: mode, updatedAt: new Date() }).where(eq(exhibits.id, exhibitId));
  if (from === 'console') deps.exhibitGateway.send(exhibitId, { type: 'opMode', value: mode });
  deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.opMode', id: exhibitId, mode });
}

/**
 * Copies the leader's setting values (all, or one setting or list) to its followers, where the
 * follower has the same setting and the value fits it. Followers that are connected get them now.
 */
export async function copyToFollowers(deps: AppDeps, leaderId: string, only?: { settingId?: string; listId?: string }): Promise<number> {
  const followers = await deps.db.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.leaderId, leaderId));
  if (!followers.length) return 0;
  const leader = await loadRuntimeRows(deps.db, leaderId);
  for (const { id: followerId } of followers) {
    const follower = await loadRuntimeRows(deps.db, followerId);
    if (!only?.listId) {
      for (const source of leader.settings.filter((s) => s.listManifestId === '' && (!only?.settingId || s.manifestId === only.settingId))) {
        const dest = follower.settings.find((s) => s.listManifestId === '' && s.manifestId === source.manifestId);
        if (!dest || dest.type !== source.type) continue;
        const checked = checkSettingValue(dest.definition as ManifestSetting, source.value);
        if (!checked.ok || JSON.stringify(checked.value) === JSON.stringify(dest.value)) continue;
        await savePlainSetting(deps, followerId, dest.manifestId, checked.value);
      }
    }
    for (const sourceList of leader.lists.filter((l) => (only ? l.manifestId === only.listId : true))) {
      const destList = follower.lists.find((l) => l.manifestId === sourceList.manifestId);
      if (!destList) continue;
      const templates = follower.settings.filter((s) => s.listManifestId === destList.manifestId).map((s) => s.definition as ManifestSetting);
      const sourceItems = leader.listItems.filter((i) => i.listId === sourceList.id);
      const destItems = follower.listItems.filter((i) => i.listId === destList.id);
      await deps.db.transaction(async (tx) => {
        const names = sourceItems.map((i) => i.listName);
        await tx
          .delete(exhibitSettingListItems)
          .where(and(eq(exhibitSettingListItems.listId, destList.id), names.length ? notInArray(exhibitSettingListItems.listName, names) : undefined));
        for (const item of sourceItems) {
          const values = normalizeItemValues(templates, item.values as Record<string, unknown>);
          const existing = destItems.find((d) => d.listName === item.listName);
          if (existing) {
            await tx
              .update(exhibitSettingListItems)
              .set({ values, order: item.order, version: existing.version + 1, updatedAt: new Date() })
              .where(eq(exhibitSettingListItems.id, existing.id));
          } else {
            await tx.insert(exhibitSettingListItems).values({ listId: destList.id, listName: item.listName, order: item.order, values });
          }
        }
      });
      await listChanged(deps, followerId, destList.id);
    }
  }
  return followers.length;
}

/** POST .../sync-followers: the leader's current settings to all its followers now. */
export async function syncFollowers(deps: AppDeps, leaderId: string): Promise<{ followers: number }> {
  await getExhibitState(deps.db, leaderId);
  return { followers: await copyToFollowers(deps, leaderId) };
}

async function findList(db: Db, exhibitId: string, listKey: string) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(listKey);
  const [list] = await db
    .select()
    .from(exhibitSettingLists)
    .where(
      and(
        eq(exhibitSettingLists.exhibitId, exhibitId),
        uuid ? sql`(${exhibitSettingLists.id} = ${listKey} or ${exhibitSettingLists.manifestId} = ${listKey})` : eq(exhibitSettingLists.manifestId, listKey),
      ),
    );
  if (!list) throw new AppError('NotFound', `The setting list "${listKey}" does not exist.`);
  const templates = await db
    .select({ definition: exhibitSettings.definition })
    .from(exhibitSettings)
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, list.manifestId)));
  return { list, templates: templates.map((t) => t.definition as ManifestSetting) };
}

async function nextOrder(db: Db, listId: string): Promise<number> {
  const [row] = await db.select({ value: max(exhibitSettingListItems.order) }).from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, listId));
  return (row?.value ?? -1) + 1;
}

async function insertListItem(db: Db, listId: string, listName: string, values: Record<string, SettingValue>): Promise<void> {
  const [taken] = await db
    .select({ id: exhibitSettingListItems.id })
    .from(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, listId), eq(exhibitSettingListItems.listName, listName)));
  if (taken) throw new AppError('Conflict', `An item named "${listName}" already exists in this list.`);
  await db.insert(exhibitSettingListItems).values({ listId, listName, order: await nextOrder(db, listId), values });
}

/** POST .../settinglist/{listId}: a new item with default values. */
export async function createListItem(deps: AppDeps, exhibitId: string, listKey: string, listName: string): Promise<void> {
  assertNotFollower(await getExhibitState(deps.db, exhibitId));
  const { list, templates } = await findList(deps.db, exhibitId, listKey);
  await insertListItem(deps.db, list.id, listName, normalizeItemValues(templates, {}));
  await listChanged(deps, exhibitId, list.id);
  await copyToFollowers(deps, exhibitId, { listId: list.manifestId });
}

/** POST .../settinglist/{listId}/settinglistitem: a copy of an item under a new name. */
export async function copyListItem(deps: AppDeps, exhibitId: string, listKey: string, listName: string, sourceName: string): Promise<void> {
  assertNotFollower(await getExhibitState(deps.db, exhibitId));
  const { list, templates } = await findList(deps.db, exhibitId, listKey);
  const [source] = await deps.db
    .select()
    .from(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, list.id), eq(exhibitSettingListItems.listName, sourceName)));
  if (!source) throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${sourceName}".`);
  await insertListItem(deps.db, list.id, listName, normalizeItemValues(templates, source.values as Record<string, unknown>));
  await listChanged(deps, exhibitId, list.id);
  await copyToFollowers(deps, exhibitId, { listId: list.manifestId });
}

/** POST .../settinglist/{listId}/order: item names in their new order. */
export async function orderListItems(deps: AppDeps, exhibitId: string, listKey: string, order: string[]): Promise<void> {
  assertNotFollower(await getExhibitState(deps.db, exhibitId));
  const { list } = await findList(deps.db, exhibitId, listKey);
  const items = await deps.db.select().from(exhibitSettingListItems).where(eq(exhibitSettingListItems.listId, list.id));
  const unknown = order.filter((name) => !items.some((i) => i.listName === name));
  if (unknown.length) throw new AppError('ValidationError', `order: the list has no item ${unknown.map((n) => `"${n}"`).join(', ')}`);
  if (new Set(order).size !== order.length) throw new AppError('ValidationError', 'order: an item is named twice');
  // Items left out keep their relative order after the named ones.
  const rest = items.filter((i) => !order.includes(i.listName)).sort((a, b) => a.order - b.order).map((i) => i.listName);
  const names = [...order, ...rest];
  await deps.db.transaction(async (tx) => {
    for (const [index, name] of names.entries()) {
      await tx
        .update(exhibitSettingListItems)
        .set({ order: index, version: sql`${exhibitSettingListItems.version} + 1`, updatedAt: new Date() })
        .where(and(eq(exhibitSettingListItems.listId, list.id), eq(exhibitSettingListItems.listName, name)));
    }
  });
  await listChanged(deps, exhibitId, list.id);
  await copyToFollowers(deps, exhibitId, { listId: list.manifestId });
}

/** DELETE .../settinglist/{listId}?listName */
export async function deleteListItem(deps: AppDeps, exhibitId: string, listKey: string, listName: string): Promise<void> {
  assertNotFollower(await getExhibitState(deps.db, exhibitId));
  const { list } = await findList(deps.db, exhibitId, listKey);
  const deleted = await deps.db
    .delete(exhibitSettingListItems)
    .where(and(eq(exhibitSettingListItems.listId, list.id), eq(exhibitSettingListItems.listName, listName)))
    .returning({ id: exhibitSettingListItems.id });
  if (!deleted.length) throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${listName}".`);
  await listChanged(deps, exhibitId, list.id);
  await copyToFollowers(deps, exhibitId, { listId: list.manifestId });
}

// ---------------------------------------------------------------------------------------------
// What the exhibit sends (called by the gateway).

/** An exhibit's statuses by manifest id (row id and type), kept by its connection. */
export type StatusCache = Map<string, { id: string; type: string }>;

/**
 * A status value from the exhibit; answers an error message when the status is unknown. The
 * value reaches consoles before it is stored, so a busy database never delays the live view;
 * `cache` spares the lookup of the status's type on every value.
 */
export async function recordStatus(
  deps: AppDeps,
  exhibitId: string,
  id: string,
  value: string | number | null,
  cache: StatusCache = new Map(),
): Promise<string | null> {
  let status = cache.get(id);
  if (!status) {
    [status] = await deps.db
      .select({ id: exhibitStatuses.id, type: exhibitStatuses.type })
      .from(exhibitStatuses)
      .where(and(eq(exhibitStatuses.exhibitId, exhibitId), eq(exhibitStatuses.manifestId, id)));
    if (!status) return `Unknown status "${id}": declare it in the manifest.`;
    cache.set(id, status);
  }
  if (value !== null && status.type === 'Integer' && (typeof value !== 'number' || !Number.isFinite(value))) return `Status "${id}" needs a number.`;
  if (value !== null && status.type !== 'Integer' && typeof value !== 'string') return `Status "${id}" needs text.`;
  deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.status', exhibitId, id, value });
  await deps.db.update(exhibitStatuses).set({ value, valueUpdatedAt: deps.clock.now() }).where(eq(exhibitStatuses.id, status.id));
  return null;
}

/** The exhibit applied these versions: consoles learn which saved values are now applied. */
export async function acknowledge(
  deps: AppDeps,
  exhibitId: string,
  settings: { id: string; version: number }[],
  listItems: { listId: string; listName: string; version: number }[],
): Promise<void> {
  for (const ack of settings) {
    const [row] = await deps.db
      .update(exhibitSettings)
      .set({ appliedVersion: sql`least(${exhibitSettings.version}, greatest(${exhibitSettings.appliedVersion}, ${ack.version}))` })
      .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.listManifestId, ''), eq(exhibitSettings.manifestId, ack.id)))
      .returning({ value: exhibitSettings.value, version: exhibitSettings.version, appliedVersion: exhibitSettings.appliedVersion });
    if (row && row.appliedVersion >= row.version) {
      deps.hub.publish(topicFor('exhibit', exhibitId), {
        type: 'exhibit.setting',
        exhibitId,
        settingId: ack.id,
        settingValue: row.value,
        applied: true,
      });
    }
  }
  const touched = new Set<string>();
  for (const ack of listItems) {
    const lists = await deps.db
      .select({ id: exhibitSettingLists.id })
      .from(exhibitSettingLists)
      .where(and(eq(exhibitSettingLists.exhibitId, exhibitId), eq(exhibitSettingLists.manifestId, ack.listId)));
    if (!lists.length) continue;
    const updated = await deps.db
      .update(exhibitSettingListItems)
      .set({ appliedVersion: sql`least(${exhibitSettingListItems.version}, greatest(${exhibitSettingListItems.appliedVersion}, ${ack.version}))` })
      .where(and(inArray(exhibitSettingListItems.listId, lists.map((l) => l.id)), eq(exhibitSettingListItems.listName, ack.listName)))
      .returning({ id: exhibitSettingListItems.id });
    if (updated.length) touched.add(ack.listId);
  }
  if (touched.size) deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.manifest', exhibitId });
}

/** Log lines from the exhibit: stored, and published for live log views. */
export async function recordLogs(deps: AppDeps, exhibitId: string, entries: { level: LogLevel; message: string; timestamp: string }[]): Promise<void> {
  const now = deps.clock.now();
  const rows = entries.map((e) => {
    const at = new Date(e.timestamp);
    return { exhibitId, level: e.level, message: e.message, at: Number.isNaN(at.getTime()) ? now : at };
  });
  await deps.db.insert(exhibitLogs).values(rows);
  for (const row of rows) {
    deps.hub.publish(topicFor('exhibit', exhibitId), {
      type: 'exhibit.log',
      exhibitId,
      log: { message: row.message, type: row.level, event_type: row.level, timestamp: row.at.toISOString() },
    });
  }
}

/** A report event from the exhibit (charted by the reports tab, a later issue). */
export async function recordEvent(deps: AppDeps, exhibitId: string, name: string, data: unknown, timestamp: string): Promise<void> {
  const at = new Date(timestamp);
  await deps.db
    .insert(exhibitReportEvents)
    .values({ exhibitId, name, data: data ?? null, at: Number.isNaN(at.getTime()) ? deps.clock.now() : at });
}
