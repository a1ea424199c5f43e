import {
  levelAllowsRead,
  levelAllowsWrite,
  roleLevelCap,
  type GranularKind,
  type GranularPermissions,
  type ItemPermission,
  type Role,
} from '@plinth/shared';
import type { ItemAccess } from '../access/item-access.js';
import type { ExhibitRuntimeRows } from '../exhibit-runtime/exhibit-runtime.repository.js';

/** One manifest item a level can be set on: its kind, manifest id and display name. */
export type LevelItem = { kind: GranularKind; manifestId: string; display: string };

/**
 * Every item of the exhibit's manifest a level applies to: statuses, settings (plain, in groups,
 * content-service ones; not those of lists, which follow their list), setting lists, controls.
 */
export function listLevelItems(rows: ExhibitRuntimeRows): LevelItem[] {
  return [
    ...rows.statuses.map((s) => ({ kind: 'status' as const, manifestId: s.manifestId, display: s.display })),
    ...rows.settings.filter((s) => s.listManifestId === '').map((s) => ({ kind: 'setting' as const, manifestId: s.manifestId, display: s.display })),
    ...rows.lists.map((l) => ({ kind: 'settingList' as const, manifestId: l.manifestId, display: l.listDisplay })),
    ...rows.controls.map((c) => ({ kind: 'control' as const, manifestId: c.manifestId, display: c.display })),
  ];
}

/** What the view shows: whose levels, on which exhibit, and whether items hidden to them are left out. */
export type GranularView = {
  exhibitId: string;
  user: { id: string; email: string };
  role: Role | null;
  access: ItemAccess;
  /** A user reading their own levels (not a manager) does not learn the names of items hidden to them. */
  leaveOutHidden: boolean;
};

/** A user's level on every item of the exhibit's manifest (spec 3 Exhibit user, granular permissions). */
export function presentGranular(rows: ExhibitRuntimeRows, view: GranularView): GranularPermissions {
  const items = listLevelItems(rows)
    .map((item) => ({ item, level: view.access.level(item.kind, item.manifestId) }))
    .filter(({ level }) => !view.leaveOutHidden || levelAllowsRead(level));
  const of = (kind: GranularKind): ItemPermission[] =>
    items
      .filter(({ item }) => item.kind === kind)
      .map(({ item, level }) => ({
        id: item.manifestId,
        display: item.display,
        level,
        read: levelAllowsRead(level),
        write: levelAllowsWrite(level),
        maxLevel: roleLevelCap(view.role, kind),
      }));
  return {
    exhibitId: view.exhibitId,
    userId: view.user.id,
    email: view.user.email,
    role: view.role,
    statuspermissions: of('status'),
    settingpermissions: of('setting'),
    settinglistpermissions: of('settingList'),
    controlpermissions: of('control'),
  };
}
