import type { ItemAccess } from '../access/item-access.js';
import type { ExhibitRuntimeRows } from './exhibit-runtime.repository.js';

/**
 * An exhibit's manifest rows without the items hidden to one user (granular levels): hidden
 * statuses, controls (with their group items), plain settings, and setting lists (with their
 * settings and items). Groups stay: they are navigation only.
 */
export function visibleRuntimeRows(rows: ExhibitRuntimeRows, access: Pick<ItemAccess, 'canRead'>): ExhibitRuntimeRows {
  const controls = rows.controls.filter((c) => access.canRead('control', c.manifestId));
  const controlIds = new Set(controls.map((c) => c.id));
  const lists = rows.lists.filter((l) => access.canRead('settingList', l.manifestId));
  const listIds = new Set(lists.map((l) => l.id));
  const listManifestIds = new Set(lists.map((l) => l.manifestId));
  return {
    statuses: rows.statuses.filter((s) => access.canRead('status', s.manifestId)),
    controls,
    controlItems: rows.controlItems.filter((i) => controlIds.has(i.controlId)),
    groups: rows.groups,
    lists,
    listItems: rows.listItems.filter((i) => listIds.has(i.listId)),
    settings: rows.settings.filter((s) => (s.listManifestId === '' ? access.canRead('setting', s.manifestId) : listManifestIds.has(s.listManifestId))),
  };
}
