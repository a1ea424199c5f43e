import { checkSettingValue, SCHEDULE_MESSAGES, type ManifestSetting, type ScheduleManifest, type ScheduledEvent } from '@plinth/shared';
import { AppError } from '../../lib/app-error.js';
import type { ItemAccess } from '../access/item-access.js';
import type { ExhibitRuntimeRows, SettingRow } from '../exhibit-runtime/exhibit-runtime.repository.js';

/**
 * The changes an event applies, checked against the exhibit's manifest as a console save is
 * (each problem a 400 naming the item: `manifest.settings[1]: Setting "volume" must be at most 10`),
 * and named with their display texts for the calendar.
 */

const invalid = (at: string, message: string) => new AppError('ValidationError', `manifest.${at}: ${message}`);

function byKey<T extends { id: string; manifestId: string }>(rows: T[], key: string): T | undefined {
  return rows.find((r) => r.manifestId === key) ?? rows.find((r) => r.id === key);
}

/** The setting a change names: a plain one, or (with `listName`) one of a list's settings, whose item must exist. */
function findChangedSetting(rows: ExhibitRuntimeRows, change: ScheduleManifest['settings'][number], at: string): SettingRow {
  if (!change.listName) {
    const setting = byKey(rows.settings.filter((s) => s.listManifestId === ''), change.settingId);
    if (!setting) throw invalid(at, `the setting "${change.settingId}" does not exist`);
    return setting;
  }
  const lists = change.listId ? rows.lists.filter((l) => l.id === change.listId || l.manifestId === change.listId) : rows.lists;
  const candidates = rows.settings.filter(
    (s) => s.listManifestId !== '' && (s.manifestId === change.settingId || s.id === change.settingId) && lists.some((l) => l.manifestId === s.listManifestId),
  );
  if (!candidates.length) throw invalid(at, `the setting "${change.settingId}" is in no list`);
  if (candidates.length > 1) throw invalid(at, `the setting "${change.settingId}" is in several lists; name the list (listId)`);
  const setting = candidates[0]!;
  const list = rows.lists.find((l) => l.manifestId === setting.listManifestId)!;
  if (!rows.listItems.some((i) => i.listId === list.id && i.listName === change.listName)) {
    throw invalid(at, `the list "${list.manifestId}" has no item "${change.listName}"`);
  }
  return setting;
}

/**
 * The changes with every item checked and named by manifest id; at least one change. A setting
 * changed twice in one event is refused (which value would win is not obvious).
 */
export function checkScheduleChanges(rows: ExhibitRuntimeRows, changes: ScheduleManifest): ScheduleManifest {
  const empty = !changes.controls.length && !changes.settings.length && !changes.strapiContent.length && !changes.opMode;
  if (empty) throw new AppError('ValidationError', `manifest: ${SCHEDULE_MESSAGES.noChanges}`);
  const seen = new Set<string>();
  const settings = changes.settings.map((change, i) => {
    const at = `settings[${i}]`;
    const setting = findChangedSetting(rows, change, at);
    const key = `${setting.listManifestId}\u0000${change.listName ?? ''}\u0000${setting.manifestId}`;
    if (seen.has(key)) throw invalid(at, `the setting "${setting.manifestId}" is changed twice`);
    seen.add(key);
    if (setting.type === 'StrapiContent' && !setting.listManifestId) throw invalid(at, `the setting "${setting.manifestId}" is a content-service setting: put it in strapiContent`);
    const checked = checkSettingValue(setting.definition as ManifestSetting, change.value);
    if (!checked.ok) throw invalid(at, checked.message);
    const list = setting.listManifestId ? { listName: change.listName!, listId: setting.listManifestId } : {};
    return { settingId: setting.manifestId, value: checked.value, ...list };
  });
  const strapiContent = changes.strapiContent.map((change, i) => {
    const at = `strapiContent[${i}]`;
    const setting = byKey(rows.settings.filter((s) => s.listManifestId === ''), change.strapiContentId);
    if (!setting) throw invalid(at, `the setting "${change.strapiContentId}" does not exist`);
    if (setting.type !== 'StrapiContent') throw invalid(at, `Setting "${setting.manifestId}" is not a StrapiContent setting`);
    if (seen.has(`\u0000\u0000${setting.manifestId}`)) throw invalid(at, `the setting "${setting.manifestId}" is changed twice`);
    seen.add(`\u0000\u0000${setting.manifestId}`);
    return { strapiContentId: setting.manifestId, value: change.value };
  });
  const controls = changes.controls.map((change, i) => {
    const at = `controls[${i}]`;
    const control = byKey(rows.controls, change.controlId);
    if (!control) throw invalid(at, `the control "${change.controlId}" does not exist`);
    if (control.type !== 'Group') {
      if (change.controlGroupItemId) throw invalid(at, `the control "${control.manifestId}" has no items`);
      return { controlId: control.manifestId };
    }
    if (!change.controlGroupItemId) throw invalid(at, `the control "${control.manifestId}" is a group; name one of its items (controlGroupItemId)`);
    const item = byKey(
      rows.controlItems.filter((it) => it.controlId === control.id),
      change.controlGroupItemId,
    );
    if (!item) throw invalid(at, `the control "${control.manifestId}" has no item "${change.controlGroupItemId}"`);
    return { controlId: control.manifestId, controlGroupItemId: item.manifestId };
  });
  return { controls, settings, strapiContent, opMode: changes.opMode ?? null };
}

/**
 * Refuses (403 naming it) a change to an item the caller may see but not write: a setting, a
 * list's setting (the list's level), a content setting, a control. Items hidden to the caller
 * never get here: the changes are checked against the rows they may see, where a hidden item is
 * as missing as an unknown one.
 */
export function assertChangesAllowed(changes: ScheduleManifest, access: Pick<ItemAccess, 'canWrite'>): void {
  const refuse = (at: string, what: string) => new AppError('Forbidden', `manifest.${at}: you may not ${what}`);
  changes.settings.forEach((change, i) => {
    if (change.listId && !access.canWrite('settingList', change.listId)) throw refuse(`settings[${i}]`, `change the setting list "${change.listId}"`);
    if (!change.listId && !access.canWrite('setting', change.settingId)) throw refuse(`settings[${i}]`, `change the setting "${change.settingId}"`);
  });
  changes.strapiContent.forEach((change, i) => {
    if (!access.canWrite('setting', change.strapiContentId)) throw refuse(`strapiContent[${i}]`, `change the setting "${change.strapiContentId}"`);
  });
  changes.controls.forEach((change, i) => {
    if (!access.canWrite('control', change.controlId)) throw refuse(`controls[${i}]`, `fire the control "${change.controlId}"`);
  });
}

/** The changes with display names (spec 3: schedulecontrols, schedulesettings, schedulestrapicontents); an item gone since keeps its id. */
export function presentScheduleChanges(
  rows: ExhibitRuntimeRows,
  changes: ScheduleManifest,
): Pick<ScheduledEvent, 'schedulecontrols' | 'schedulesettings' | 'schedulestrapicontents'> {
  const settingName = (id: string, listId?: string | null) =>
    rows.settings.find((s) => s.manifestId === id && (listId ? s.listManifestId === listId : s.listManifestId === ''))?.display ?? id;
  return {
    schedulecontrols: changes.controls.map((c) => {
      const control = rows.controls.find((r) => r.manifestId === c.controlId);
      const item = control && c.controlGroupItemId ? rows.controlItems.find((i) => i.controlId === control.id && i.manifestId === c.controlGroupItemId) : undefined;
      const name = control ? (item ? `${control.display}: ${item.display}` : control.display) : c.controlId;
      return { controlId: c.controlId, control: name, controlGroupItemId: c.controlGroupItemId ?? null };
    }),
    schedulesettings: changes.settings.map((s) => ({
      settingId: s.settingId,
      setting: settingName(s.settingId, s.listId),
      value: s.value,
      listName: s.listName ?? null,
    })),
    schedulestrapicontents: changes.strapiContent.map((s) => ({
      strapiContentId: s.strapiContentId,
      strapicontent: settingName(s.strapiContentId),
      value: s.value,
    })),
  };
}
