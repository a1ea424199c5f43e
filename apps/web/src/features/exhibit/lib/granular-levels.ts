import { GRANULAR_LEVELS, type GranularLevel, type GranularPermissions, type ItemPermission, type UpdateGranular } from '@plinth/shared';

/** The four lists of the granular response, as the body of the save names them too. */
export type GranularListKey = 'statuspermissions' | 'settingpermissions' | 'settinglistpermissions' | 'controlpermissions';

/** The editor's sections, in the order shown. */
export const GRANULAR_SECTIONS: readonly {
  key: GranularListKey;
  title: string;
}[] = [
  { key: 'statuspermissions', title: 'Statuses' },
  { key: 'settingpermissions', title: 'Settings' },
  { key: 'settinglistpermissions', title: 'Setting lists' },
  { key: 'controlpermissions', title: 'Controls' },
];

export const LEVEL_LABELS: Record<GranularLevel, string> = {
  read_write: 'Read-write',
  read: 'Read',
  hidden: 'Hidden',
};

/** Highest first, as the level controls show them. */
export const LEVELS_SHOWN: readonly GranularLevel[] = [...GRANULAR_LEVELS].reverse();

const rank = (level: GranularLevel) => GRANULAR_LEVELS.indexOf(level);

/** True when the item's role cap forbids `level` (it is above `maxLevel`). */
export const isAboveMax = (item: Pick<ItemPermission, 'maxLevel'>, level: GranularLevel) => rank(level) > rank(item.maxLevel);

/** Why a level is not offered: the role's cap. */
export const maxLevelReason = (item: Pick<ItemPermission, 'maxLevel'>) => `Their role allows at most ${LEVEL_LABELS[item.maxLevel]}`;

/** Edits in progress: the chosen level per list and item id. */
export type LevelEdits = Partial<Record<GranularListKey, Record<string, GranularLevel>>>;

/** The edits that differ from the stored levels, per list (the save's body lists, empty when untouched). */
export function changedLevels(stored: GranularPermissions, edits: LevelEdits): Pick<UpdateGranular, GranularListKey> {
  const changes = (key: GranularListKey) =>
    stored[key].flatMap((item) => {
      const level = edits[key]?.[item.id];
      // An edit the role no longer allows (the role changed meanwhile) is not sent.
      return level && level !== item.level && !isAboveMax(item, level) ? [{ id: item.id, level }] : [];
    });
  return {
    statuspermissions: changes('statuspermissions'),
    settingpermissions: changes('settingpermissions'),
    settinglistpermissions: changes('settinglistpermissions'),
    controlpermissions: changes('controlpermissions'),
  };
}

/** How many items the edits change. */
export function countChanges(stored: GranularPermissions, edits: LevelEdits): number {
  return Object.values(changedLevels(stored, edits)).reduce((sum, list) => sum + (list?.length ?? 0), 0);
}
