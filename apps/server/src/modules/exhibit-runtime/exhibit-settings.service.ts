import { checkSettingValue, type ManifestSetting, type SettingValue, type SettingValues } from '@plinth/shared';
import { presentSettingChanged } from './exhibit-events.presenter.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { ItemAccess } from '../access/item-access.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import type { ContentEntry } from '../content-manager/content-manager.presenter.js';
import { getStrapiEntry } from '../content-manager/strapi-content.service.js';
import { recordExhibit, shownValue } from '../logging/records.js';
import { listFollowerIds, loadRuntimeRows, type ExhibitRuntimeRows, type ExhibitState, type SettingListRow, type SettingRow } from './exhibit-runtime.repository.js';
import { getExhibitState } from './exhibit-runtime.service.js';
import {
  deleteListItemRow,
  findListItem,
  findListWithItems,
  findSettingList,
  insertListItem,
  listListItems,
  listSettingCandidates,
  listSettingLists,
  listTemplateDefinitions,
  reorderListItems,
  replaceListItems,
  updateListItem,
  updateSettingValue,
} from './exhibit-settings.repository.js';
import { normalizeItemValues } from './manifest-structure.js';
import { presentSdkList, presentSettingMessage } from './sdk-messages.presenter.js';

/**
 * Settings and setting lists as the console edits them: desired state with a version, pushed to
 * the exhibit when it is connected (it acknowledges what it applied), published to consoles and
 * copied from a leader to its followers.
 */

function assertNotFollower(state: ExhibitState): void {
  if (state.leaderId) throw new AppError('Conflict', 'A follower exhibit takes its settings from its leader.');
}

/**
 * A value to save: the setting by row id or manifest id, and for a list item's setting the item
 * (and list, when ambiguous); `by` is who saved it (an email), for the exhibit's log; `access`
 * what they may change (SERVER_ITEM_ACCESS when the server saves it).
 */
export type SettingSave = { settingId: string; value: unknown; listName?: string; listId?: string; by?: string; access: ItemAccess; audit?: AuditContext };

type SettingTarget = { setting: SettingRow; list: SettingListRow | null };

/** The setting to save, when the caller may change it (a list's setting: when they may change the list). */
async function findSetting(deps: AppDeps, exhibitId: string, save: Omit<SettingSave, 'value'>): Promise<SettingTarget> {
  const { settingId, listName, listId } = save;
  const inList = listName !== undefined;
  const candidates = await listSettingCandidates(deps.db, exhibitId, { settingKey: settingId, inList });
  const lists = inList ? await listSettingLists(deps.db, exhibitId) : [];
  const matching = candidates.filter((s) => {
    if (!inList || !listId) return true;
    const list = lists.find((l) => l.manifestId === s.listManifestId);
    return list?.id === listId || list?.manifestId === listId;
  });
  if (matching.length === 0) throw new AppError('NotFound', `The setting "${settingId}" does not exist.`);
  if (matching.length > 1) throw new AppError('ValidationError', `listId: the setting "${settingId}" is in several lists; name the list`);
  const setting = matching[0]!;
  const list = lists.find((l) => l.manifestId === setting.listManifestId) ?? null;
  if (list) save.access.assertWrite('settingList', list.manifestId);
  else save.access.assertWrite('setting', setting.manifestId);
  return { setting, list };
}

/**
 * Saves a setting value as desired state: stored with a new version, pushed to the exhibit if it
 * is connected (it acknowledges when applied), published to consoles, copied to followers.
 */
export async function saveSetting(deps: AppDeps, exhibitId: string, save: SettingSave): Promise<{ version: number | null }> {
  const state = await getExhibitState(deps, exhibitId);
  assertNotFollower(state);
  const target = await findSetting(deps, exhibitId, save);
  const definition = target.setting.definition as ManifestSetting;
  const checked = checkSettingValue(definition, save.value);
  if (!checked.ok) throw new AppError('ValidationError', checked.message);
  let version: number | null = null;
  if (target.list) await saveListItemValue(deps, { exhibitId, target, listName: save.listName!, value: checked.value });
  else {
    const content = await readChosenContent(deps, { exhibitId, definition, value: checked.value });
    version = await savePlainSetting(deps, exhibitId, { manifestId: target.setting.manifestId, value: checked.value, content });
  }
  const where = target.list ? ` of "${save.listName}" in list "${target.list.manifestId}"` : '';
  const message = `Setting "${target.setting.manifestId}"${where} saved by ${save.by ?? 'the server'}: ${shownValue(checked.value)}`;
  recordExhibit(deps.logs, exhibitId, { eventType: 'setting', message });
  if (save.audit) {
    const resourceId = target.list ? `${target.list.manifestId}/${save.listName}/${target.setting.manifestId}` : target.setting.manifestId;
    const before = target.list ? undefined : { value: target.setting.value };
    await recordExhibitChange(deps, save.audit, { exhibitId, resource: 'exhibitSetting', resourceId, action: 'update', before, after: { value: checked.value } });
  }
  await copyToFollowers(deps, { leaderId: exhibitId, only: { settingId: target.setting.manifestId, listId: target.list?.manifestId } });
  return { version };
}

/**
 * A StrapiContent setting's chosen entry, read now from the organization's content manager (null
 * when none is chosen); undefined for the other types, whose rows hold no content.
 */
async function readChosenContent(
  deps: AppDeps,
  choice: { exhibitId: string; definition: ManifestSetting; value: SettingValue },
): Promise<ContentEntry | null | undefined> {
  const { definition, value } = choice;
  if (definition.type !== 'StrapiContent') return undefined;
  if (value === null) return null;
  return getStrapiEntry(deps, { exhibitId: choice.exhibitId, contentType: definition.contentType, contentId: String(value) });
}

/** A plain setting's new value (and a StrapiContent setting's entry): stored, sent to the exhibit, published to consoles. */
type PlainSettingChange = { manifestId: string; value: SettingValue; content?: ContentEntry | null };

/** Answers the version stored, or null when the setting is gone. */
async function savePlainSetting(deps: AppDeps, exhibitId: string, change: PlainSettingChange): Promise<number | null> {
  const row = await updateSettingValue(deps.db, exhibitId, change);
  if (!row) return null;
  settingSaved(deps, exhibitId, { ...change, version: row.version });
  return row.version;
}

/**
 * After a plain setting's value was stored as `version`: the exhibit gets it (and acknowledges
 * it), consoles learn it is saved but not yet applied. Also what a file delete's reset ends with.
 */
export function settingSaved(
  deps: AppDeps,
  exhibitId: string,
  saved: { manifestId: string; value: SettingValue; version: number; content?: ContentEntry | null },
): void {
  const { manifestId, value, version } = saved;
  deps.exhibitGateway.send(exhibitId, presentSettingMessage(saved));
  deps.hub.publish('exhibit', exhibitId, presentSettingChanged({ exhibitId, settingId: manifestId, value, applied: false, version }));
}

async function saveListItemValue(
  deps: AppDeps,
  save: { exhibitId: string; target: SettingTarget; listName: string; value: SettingValue },
): Promise<void> {
  const list = save.target.list!;
  const item = await findListItem(deps.db, list.id, save.listName);
  if (!item) throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${save.listName}".`);
  const values = { ...(item.values as Record<string, SettingValue>), [save.target.setting.manifestId]: save.value };
  await updateListItem(deps.db, item.id, { values, version: item.version + 1 });
  await listChanged(deps, save.exhibitId, list.id);
}

/** After any change to a list: the exhibit gets the whole list, consoles a manifest notice. */
export async function listChanged(deps: AppDeps, exhibitId: string, listId: string): Promise<void> {
  const found = await findListWithItems(deps.db, listId);
  if (!found) return;
  deps.exhibitGateway.send(exhibitId, presentSdkList(found.list, found.items));
  deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.manifestChanged', exhibitId });
}

/** A StrapiContent setting's chosen content id (null: none), who chose it and what they may change. */
export type StrapiContentSave = { settingId: string; contentId: string | number | null; by?: string; access: ItemAccess; audit?: AuditContext };

/**
 * PUT .../strapi-content/{settingId}: the content id chosen for a StrapiContent setting. The
 * entry is read from the content manager (NotFound when it has none of that id); the value is the
 * id as text and the entry (id and fields) goes to the exhibit with it. Null clears both.
 */
export async function saveStrapiContent(deps: AppDeps, exhibitId: string, save: StrapiContentSave): Promise<{ version: number | null }> {
  const target = await findSetting(deps, exhibitId, { settingId: save.settingId, access: save.access });
  if (target.setting.type !== 'StrapiContent') {
    throw new AppError('ValidationError', `Setting "${target.setting.manifestId}" is not a StrapiContent setting`);
  }
  const value = save.contentId === null ? null : String(save.contentId);
  return saveSetting(deps, exhibitId, { settingId: target.setting.manifestId, value, by: save.by, access: save.access, audit: save.audit });
}

/** What to copy from a leader: everything, or (`only`) one plain setting or one list. */
export type FollowerCopy = { leaderId: string; only?: { settingId?: string; listId?: string } };

/**
 * Copies the leader's setting values (all, or one setting or list) to its followers, where the
 * follower has the same setting and the value fits it. Followers that are connected get them now.
 */
export async function copyToFollowers(deps: AppDeps, copy: FollowerCopy): Promise<number> {
  const followers = await listFollowerIds(deps.db, copy.leaderId);
  if (!followers.length) return 0;
  const { only } = copy;
  const leader = await loadRuntimeRows(deps.db, copy.leaderId);
  for (const followerId of followers) {
    const follower = await loadRuntimeRows(deps.db, followerId);
    if (!only?.listId) await copyPlainSettings(deps, { followerId, leader, follower, settingId: only?.settingId });
    for (const sourceList of leader.lists.filter((l) => (only ? l.manifestId === only.listId : true))) {
      await copyList(deps, { followerId, leader, follower, sourceList });
    }
  }
  return followers.length;
}

type FollowerRows = { followerId: string; leader: ExhibitRuntimeRows; follower: ExhibitRuntimeRows };

async function copyPlainSettings(deps: AppDeps, copy: FollowerRows & { settingId?: string }): Promise<void> {
  const { followerId, leader, follower, settingId } = copy;
  for (const source of leader.settings.filter((s) => s.listManifestId === '' && (!settingId || s.manifestId === settingId))) {
    const dest = follower.settings.find((s) => s.listManifestId === '' && s.manifestId === source.manifestId);
    if (!dest || dest.type !== source.type) continue;
    const checked = checkSettingValue(dest.definition as ManifestSetting, source.value);
    if (!checked.ok) continue;
    const content = copiedContent(source, dest);
    if (content === false) continue;
    const isSame = JSON.stringify(checked.value) === JSON.stringify(dest.value) && JSON.stringify(content ?? null) === JSON.stringify(dest.content ?? null);
    if (isSame) continue;
    await savePlainSetting(deps, followerId, { manifestId: dest.manifestId, value: checked.value, content });
  }
}

/**
 * The content a follower's setting takes with the leader's value: a StrapiContent setting the
 * leader's entry (only when both read the same content type; false: not copied), others none.
 */
function copiedContent(source: SettingRow, dest: SettingRow): ContentEntry | null | undefined | false {
  if (source.type !== 'StrapiContent') return undefined;
  const typeOf = (row: SettingRow) => (row.definition as Extract<ManifestSetting, { type: 'StrapiContent' }>).contentType;
  if (typeOf(source) !== typeOf(dest)) return false;
  return (source.content ?? null) as ContentEntry | null;
}

async function copyList(deps: AppDeps, copy: FollowerRows & { sourceList: SettingListRow }): Promise<void> {
  const { followerId, leader, follower, sourceList } = copy;
  const destList = follower.lists.find((l) => l.manifestId === sourceList.manifestId);
  if (!destList) return;
  const templates = follower.settings.filter((s) => s.listManifestId === destList.manifestId).map((s) => s.definition as ManifestSetting);
  const items = leader.listItems
    .filter((i) => i.listId === sourceList.id)
    .map((item) => ({ listName: item.listName, order: item.order, values: normalizeItemValues(templates, item.values as Record<string, unknown>) }));
  const existing = follower.listItems.filter((i) => i.listId === destList.id);
  await replaceListItems(deps.db, destList.id, { items, existing });
  await listChanged(deps, followerId, destList.id);
}

/** POST .../sync-followers: the leader's current settings to all its followers now. */
export async function syncFollowers(deps: AppDeps, leaderId: string): Promise<{ followers: number }> {
  await getExhibitState(deps, leaderId);
  return { followers: await copyToFollowers(deps, { leaderId }) };
}

/** A setting list (by row id or manifest id), one item name in it, and what the caller may change. */
export type ListItemRef = { listId: string; listName: string; access: ItemAccess; audit: AuditContext };

/** The list with its settings' definitions, when the caller may change it. */
async function findList(deps: AppDeps, exhibitId: string, ref: { listId: string; access: ItemAccess }) {
  const list = await findSettingList(deps.db, exhibitId, ref.listId);
  if (!list) throw new AppError('NotFound', `The setting list "${ref.listId}" does not exist.`);
  ref.access.assertWrite('settingList', list.manifestId);
  const templates = await listTemplateDefinitions(deps.db, exhibitId, list.manifestId);
  return { list, templates: templates as ManifestSetting[] };
}

/** Adds an item under a name no other item of the list has. */
async function addListItem(deps: AppDeps, item: { listId: string; listName: string; values: SettingValues }): Promise<void> {
  if (await findListItem(deps.db, item.listId, item.listName)) {
    throw new AppError('Conflict', `An item named "${item.listName}" already exists in this list.`);
  }
  await insertListItem(deps.db, item);
}

/** What a list change was, for the audit log (the resource id is `list/item`, or the list for a new order). */
type ListChange = { list: SettingListRow; audit: AuditContext; action: 'create' | 'update' | 'delete'; itemName?: string; before?: unknown; after?: unknown };

/** Every list change ends the same way: recorded, the exhibit and consoles learn it, followers copy it. */
async function afterListChange(deps: AppDeps, exhibitId: string, change: ListChange): Promise<void> {
  const { list, audit, action, itemName, before, after } = change;
  const resourceId = itemName === undefined ? list.manifestId : `${list.manifestId}/${itemName}`;
  await recordExhibitChange(deps, audit, { exhibitId, resource: 'settingListItem', resourceId, action, before, after });
  await listChanged(deps, exhibitId, list.id);
  await copyToFollowers(deps, { leaderId: exhibitId, only: { listId: list.manifestId } });
}

/** POST .../settinglist/{listId}: a new item with default values. */
export async function createListItem(deps: AppDeps, exhibitId: string, ref: ListItemRef): Promise<void> {
  assertNotFollower(await getExhibitState(deps, exhibitId));
  const { list, templates } = await findList(deps, exhibitId, ref);
  const values = normalizeItemValues(templates, {});
  await addListItem(deps, { listId: list.id, listName: ref.listName, values });
  await afterListChange(deps, exhibitId, { list, audit: ref.audit, action: 'create', itemName: ref.listName, after: values });
}

/** POST .../settinglist/{listId}/settinglistitem: a copy of the item `sourceName` under a new name. */
export async function copyListItem(deps: AppDeps, exhibitId: string, ref: ListItemRef & { sourceName: string }): Promise<void> {
  assertNotFollower(await getExhibitState(deps, exhibitId));
  const { list, templates } = await findList(deps, exhibitId, ref);
  const source = await findListItem(deps.db, list.id, ref.sourceName);
  if (!source) throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${ref.sourceName}".`);
  const values = normalizeItemValues(templates, source.values as Record<string, unknown>);
  await addListItem(deps, { listId: list.id, listName: ref.listName, values });
  await afterListChange(deps, exhibitId, { list, audit: ref.audit, action: 'create', itemName: ref.listName, after: { copyOf: ref.sourceName, values } });
}

/** POST .../settinglist/{listId}/order: item names in their new order. */
export async function orderListItems(
  deps: AppDeps,
  exhibitId: string,
  change: { listId: string; order: string[]; access: ItemAccess; audit: AuditContext },
): Promise<void> {
  assertNotFollower(await getExhibitState(deps, exhibitId));
  const { order } = change;
  const { list } = await findList(deps, exhibitId, change);
  const items = await listListItems(deps.db, list.id);
  const unknown = order.filter((name) => !items.some((i) => i.listName === name));
  if (unknown.length) throw new AppError('ValidationError', `order: the list has no item ${unknown.map((n) => `"${n}"`).join(', ')}`);
  if (new Set(order).size !== order.length) throw new AppError('ValidationError', 'order: an item is named twice');
  // Items left out keep their relative order after the named ones.
  const rest = items.filter((i) => !order.includes(i.listName)).sort((a, b) => a.order - b.order).map((i) => i.listName);
  await reorderListItems(deps.db, list.id, [...order, ...rest]);
  const before = { order: [...items].sort((a, b) => a.order - b.order).map((i) => i.listName) };
  await afterListChange(deps, exhibitId, { list, audit: change.audit, action: 'update', before, after: { order: [...order, ...rest] } });
}

/** DELETE .../settinglist/{listId}?listName */
export async function deleteListItem(deps: AppDeps, exhibitId: string, ref: ListItemRef): Promise<void> {
  assertNotFollower(await getExhibitState(deps, exhibitId));
  const { list } = await findList(deps, exhibitId, ref);
  const item = await findListItem(deps.db, list.id, ref.listName);
  if (!(await deleteListItemRow(deps.db, list.id, ref.listName))) {
    throw new AppError('NotFound', `The list "${list.manifestId}" has no item "${ref.listName}".`);
  }
  await afterListChange(deps, exhibitId, { list, audit: ref.audit, action: 'delete', itemName: ref.listName, before: item?.values });
}
