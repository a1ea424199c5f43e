import {
  HIDDEN_MANIFEST_ID_PREFIX,
  type ExhibitManifest,
  type ExhibitSetting,
  type SettingGroup,
  type SettingList,
  type SettingListItem,
  type SettingValue,
} from '@plinth/shared';

/** Manifest ids starting with '$gb' are never shown (spec 2.4). */
export function isHiddenId(manifestId: string): boolean {
  return manifestId.startsWith(HIDDEN_MANIFEST_ID_PREFIX);
}

/** One step of the settings navigation: into a group, into a list, into an item of that list. */
export type SettingsStep = { kind: 'group'; id: string } | { kind: 'list'; id: string } | { kind: 'item'; listName: string };
export type SettingsPath = SettingsStep[];

/** What a level of the settings tree holds (the root or a group). */
export type SettingsContainer = {
  settings: ExhibitSetting[];
  strapiContent: ExhibitSetting[];
  settingLists: SettingList[];
  settingGroups: SettingGroup[];
};

export type SettingsLocation =
  | {
      kind: 'container';
      container: SettingsContainer;
      crumbs: string[];
      path: SettingsPath;
    }
  | { kind: 'list'; list: SettingList; crumbs: string[]; path: SettingsPath }
  | {
      kind: 'item';
      list: SettingList;
      item: SettingListItem;
      crumbs: string[];
      path: SettingsPath;
    };

const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

/** The visible settings of a container, in manifest order ('$gb' ids hidden). */
export function visibleSettings(container: SettingsContainer): ExhibitSetting[] {
  return [...container.settings, ...container.strapiContent].filter((s) => !isHiddenId(s.manifestId)).sort(byOrder);
}
export function visibleGroups(container: SettingsContainer): SettingGroup[] {
  return container.settingGroups.filter((g) => !isHiddenId(g.manifestId)).sort((a, b) => a.orderSelf - b.orderSelf);
}
export function visibleLists(container: SettingsContainer): SettingList[] {
  return container.settingLists.filter((l) => !isHiddenId(l.manifestId)).sort(byOrder);
}

/**
 * Follows a navigation path through the manifest. Steps that no longer exist (a group removed by
 * a new manifest, an item deleted) are dropped, so the answer is always a real place.
 */
export function resolveSettingsPath(manifest: ExhibitManifest, path: SettingsPath): SettingsLocation {
  let container: SettingsContainer = manifest;
  const crumbs: string[] = [];
  const taken: SettingsPath = [];
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    if (step.kind === 'group') {
      const group = visibleGroups(container).find((g) => g.manifestId === step.id);
      if (!group) break;
      container = group;
      crumbs.push(group.groupDisplay);
      taken.push(step);
      continue;
    }
    if (step.kind === 'list') {
      const list = visibleLists(container).find((l) => l.manifestId === step.id);
      if (!list) break;
      crumbs.push(list.listDisplay);
      taken.push(step);
      const next = path[i + 1];
      if (next?.kind === 'item') {
        const item = list.settinglistitems.find((it) => it.listName === next.listName);
        if (item)
          return {
            kind: 'item',
            list,
            item,
            crumbs: [...crumbs, item.listName],
            path: [...taken, next],
          };
      }
      return { kind: 'list', list, crumbs, path: taken };
    }
    break;
  }
  return { kind: 'container', container, crumbs, path: taken };
}

/** Where a pending edit belongs: a plain setting, or a setting of one list item. */
export type EditTarget = {
  settingId: string;
  listId?: string;
  listName?: string;
};

export function editKey(target: EditTarget): string {
  return [target.listId ?? '', target.listName ?? '', target.settingId].join('\u0000');
}

/** A value edited in the console and not saved yet. */
export type PendingEdit = EditTarget & {
  type: ExhibitSetting['type'];
  value: SettingValue;
};

/** The problem with a pending value, or null when it may be saved. */
export function pendingValueError(setting: ExhibitSetting, value: SettingValue): string | null {
  if (setting.type === 'IntegerInput') {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'Enter a whole number.';
    if (setting.min !== null && value < setting.min) return `Must be at least ${setting.min}.`;
    if (setting.max !== null && value > setting.max) return `Must be at most ${setting.max}.`;
  }
  if ((setting.type === 'Dropdown' || setting.type === 'SingleButtonGroup') && !setting.items.some((i) => i.id === value)) {
    return 'Choose one of the options.';
  }
  return null;
}

/** Rebuilds the manifest with every plain setting (groups walked, list items left alone) passed through `fn`. */
function mapPlainSettings(manifest: ExhibitManifest, fn: (s: ExhibitSetting) => ExhibitSetting): ExhibitManifest {
  const patch = (s: ExhibitSetting): ExhibitSetting => (s.listName !== null ? s : fn(s));
  const walkGroup = (g: SettingGroup): SettingGroup => ({
    ...g,
    settings: g.settings.map(patch),
    strapiContent: g.strapiContent.map(patch),
    settingGroups: g.settingGroups.map(walkGroup),
  });
  return {
    ...manifest,
    settings: manifest.settings.map(patch),
    strapiContent: manifest.strapiContent.map(patch),
    settingGroups: manifest.settingGroups.map(walkGroup),
  };
}

/** Whether state `a` of a setting is newer than `b`: a later saved version, or the same one applied further. */
function isNewerSettingState(a: ExhibitSetting, b: ExhibitSetting): boolean {
  return a.version > b.version || (a.version === b.version && a.appliedVersion > b.appliedVersion);
}

/** A live setting event: the server's saved version, and whether the exhibit applied it. */
export type LiveSettingChange = { settingId: string; value: SettingValue; applied: boolean; version: number };

/**
 * Applies a live value to the plain setting with this manifest id, wherever it sits in the tree.
 * An event older than what the console holds (it crossed a newer read) changes nothing.
 */
export function patchSettingValue(manifest: ExhibitManifest, change: LiveSettingChange): ExhibitManifest {
  return mapPlainSettings(manifest, (s) => {
    if (s.manifestId !== change.settingId) return s;
    const appliedVersion = change.applied ? change.version : Math.min(s.appliedVersion, change.version);
    // "Saved, not applied" about a version the console already saw applied stays applied.
    const next: ExhibitSetting = { ...s, value: change.value, version: change.version, appliedVersion, applied: appliedVersion >= change.version };
    return isNewerSettingState(s, next) ? s : next;
  });
}

/**
 * A fresh read of the manifest merged with what the console holds: a setting whose held state is
 * newer (a live event arrived while the read was on its way) keeps it, so a read answered just
 * before the exhibit acknowledged a save cannot turn "Applied" back into "Modified".
 */
export function mergeManifestRead(held: ExhibitManifest | undefined, read: ExhibitManifest): ExhibitManifest {
  if (!held) return read;
  const heldById = new Map<string, ExhibitSetting>();
  mapPlainSettings(held, (s) => {
    heldById.set(s.manifestId, s);
    return s;
  });
  return mapPlainSettings(read, (s) => {
    const before = heldById.get(s.manifestId);
    return before && isNewerSettingState(before, s)
      ? { ...s, value: before.value, version: before.version, appliedVersion: before.appliedVersion, applied: before.applied }
      : s;
  });
}

/** Every visible plain setting of the manifest, groups flattened, for the overview. */
export function allVisibleSettings(container: SettingsContainer): ExhibitSetting[] {
  return [...visibleSettings(container), ...visibleGroups(container).flatMap((g) => allVisibleSettings(g))];
}
