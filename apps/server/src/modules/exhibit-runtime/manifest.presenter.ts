import type {
  Control,
  ExhibitManifest,
  ExhibitSetting,
  ManifestSetting,
  SettingGroup,
  SettingList,
  SettingValue,
  Status,
} from '@plinth/shared';
import type { ItemAccess } from '../access/item-access.js';
import type { ExhibitRuntimeRows, SettingRow } from './exhibit-runtime.repository.js';
import { visibleRuntimeRows } from './visible-rows.js';

/**
 * What the caller may see and write, item by item (their role narrowed by their granular levels):
 * hidden items are left out, the `write` flags say read_write.
 */
export type ManifestRights = Pick<ItemAccess, 'canRead' | 'canWrite'>;

/** A setting row's value as one place shows it: plain, a list's template, or a list item's. */
type SettingShown = { write: boolean; value: SettingValue; listName: string | null; version: number; appliedVersion: number };

function presentSetting(row: SettingRow, shown: SettingShown): ExhibitSetting {
  const { write, value, listName, version, appliedVersion } = shown;
  const def = row.definition as ManifestSetting;
  const items = 'items' in def ? def.items.map((item, i) => ({ id: item.id, display: item.display ?? item.id, order: item.order ?? i })) : [];
  return {
    id: row.id,
    manifestId: row.manifestId,
    display: row.display,
    type: def.type,
    default: row.defaultValue as SettingValue,
    value,
    items,
    enabledOpMode: row.enabledOpMode,
    write,
    order: row.order,
    listName,
    min: def.type === 'IntegerInput' ? (def.min ?? null) : null,
    max: def.type === 'IntegerInput' ? (def.max ?? null) : null,
    contentType: def.type === 'StrapiContent' ? def.contentType : null,
    displayFieldName: def.type === 'StrapiContent' ? def.displayFieldName : null,
    version,
    appliedVersion,
    applied: appliedVersion >= version,
  };
}

/** The console's view of the manifest: nested groups, lists with their items, live values; only what the caller may see. */
export function presentManifest(allRows: ExhibitRuntimeRows, exhibitId: string, rights: ManifestRights): ExhibitManifest {
  const rows = visibleRuntimeRows(allRows, rights);
  const statuses: Status[] = rows.statuses.map((s) => ({
    id: s.id,
    manifestId: s.manifestId,
    type: s.type,
    display: s.display,
    default: (s.defaultValue ?? null) as Status['default'],
    value: (s.value ?? null) as Status['value'],
    order: s.order,
    updatedAt: s.valueUpdatedAt?.toISOString() ?? null,
  }));
  const controls: Control[] = rows.controls.map((c) => ({
    id: c.id,
    manifestId: c.manifestId,
    type: c.type,
    display: c.display,
    write: rights.canWrite('control', c.manifestId),
    enabledOpMode: c.enabledOpMode,
    order: c.order,
    items: rows.controlItems
      .filter((i) => i.controlId === c.id)
      .map((i) => ({ id: i.manifestId, display: i.display, order: i.order, uniqueId: i.id })),
  }));
  const plain = rows.settings.filter((s) => s.listManifestId === '');
  const lists: (SettingList & { group: string | null })[] = rows.lists.map((l) => {
    const templates = rows.settings.filter((s) => s.listManifestId === l.manifestId);
    const items = rows.listItems.filter((i) => i.listId === l.id);
    const write = rights.canWrite('settingList', l.manifestId);
    return {
      group: l.groupManifestId,
      id: l.id,
      manifestId: l.manifestId,
      type: 'SettingsList',
      listDisplay: l.listDisplay,
      listItemCount: items.length,
      enabledOpMode: l.enabledOpMode,
      write,
      order: l.order,
      exhibitId,
      settings: templates.map((t) => presentSetting(t, { write, value: t.defaultValue as SettingValue, listName: null, version: 0, appliedVersion: 0 })),
      settinglistitems: items.map((item) => {
        const values = item.values as Record<string, SettingValue>;
        return {
          listName: item.listName,
          order: item.order,
          items: templates.map((t) =>
            presentSetting(t, {
              write,
              value: values[t.manifestId] ?? (t.defaultValue as SettingValue),
              listName: item.listName,
              version: item.version,
              appliedVersion: item.appliedVersion,
            }),
          ),
          version: item.version,
          appliedVersion: item.appliedVersion,
          applied: item.appliedVersion >= item.version,
        };
      }),
    };
  });
  const settingsIn = (group: string | null) =>
    plain
      .filter((s) => s.groupManifestId === group)
      .map((s) => presentSetting(s, { write: rights.canWrite('setting', s.manifestId), value: s.value as SettingValue, listName: null, version: s.version, appliedVersion: s.appliedVersion }));
  const listsIn = (group: string | null) => lists.filter((l) => l.group === group).map(({ group: _group, ...l }) => l);
  const groupsIn = (parent: string | null): SettingGroup[] =>
    rows.groups
      .filter((g) => g.parentManifestId === parent)
      .map((g) => {
        const settings = settingsIn(g.manifestId);
        return {
          id: g.id,
          manifestId: g.manifestId,
          type: 'SettingsGroup',
          groupDisplay: g.groupDisplay,
          orderSelf: g.order,
          settings: settings.filter((s) => s.type !== 'StrapiContent'),
          strapiContent: settings.filter((s) => s.type === 'StrapiContent'),
          settingLists: listsIn(g.manifestId),
          settingGroups: groupsIn(g.manifestId),
        };
      });
  const top = settingsIn(null);
  return {
    statuses,
    controls,
    settings: top.filter((s) => s.type !== 'StrapiContent'),
    strapiContent: top.filter((s) => s.type === 'StrapiContent'),
    settingLists: listsIn(null),
    settingGroups: groupsIn(null),
  };
}
