import { createHash } from 'node:crypto';
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

/**
 * A manifest as rows: the settings, lists and groups of its nested groups, each with the list
 * and group it sits in and its order. Pure functions, shared by the ingest service and the
 * repository that writes the rows.
 */
export type FlatSetting = { def: ManifestSetting; listManifestId: string; groupManifestId: string | null; order: number };
export type FlatList = { def: SettingListDefinition; groupManifestId: string | null; order: number };
export type FlatGroup = { manifestId: string; parentManifestId: string | null; groupDisplay: string; order: number };
export type FlatManifest = { settings: FlatSetting[]; lists: FlatList[]; groups: FlatGroup[] };

/** Canonical JSON (sorted keys), so equal values compare equal whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The structure hash the lock compares: every item, type, display, default and order. */
export function manifestStructureHash(manifest: Manifest): string {
  return createHash('sha256').update(canonicalJson(manifest)).digest('hex');
}

export function flattenManifest(manifest: Manifest): FlatManifest {
  const flat: FlatManifest = { settings: [], lists: [], groups: [] };
  const addSettings = (defs: ManifestSetting[] | undefined, listManifestId: string, group: string | null) =>
    defs?.forEach((def, i) => flat.settings.push({ def, listManifestId, groupManifestId: group, order: def.order ?? i }));
  const addLists = (defs: SettingListDefinition[] | undefined, group: string | null) =>
    defs?.forEach((def, i) => {
      flat.lists.push({ def, groupManifestId: group, order: def.order ?? i });
      addSettings(def.settings, def.id, group);
    });
  const addGroups = (defs: SettingGroupDefinition[] | undefined, parent: string | null) =>
    defs?.forEach((g, i) => {
      flat.groups.push({ manifestId: g.id, parentManifestId: parent, groupDisplay: g.groupDisplay ?? g.id, order: g.order ?? i });
      addSettings(g.settings, '', g.id);
      addLists(g.settingLists, g.id);
      addGroups(g.settingGroups, g.id);
    });
  addSettings(manifest.settings, '', null);
  addLists(manifest.settingLists, null);
  addGroups(manifest.settingGroups, null);
  return flat;
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
 * A stored setting's value under its new definition: kept when the type is the same and the
 * value still fits, else the definition's default.
 */
export function keptSettingValue(def: ManifestSetting, stored: { type: string; value: unknown }): SettingValue {
  const kept = stored.type === def.type ? checkSettingValue(def, stored.value) : null;
  return kept?.ok ? kept.value : defaultSettingValue(def);
}
