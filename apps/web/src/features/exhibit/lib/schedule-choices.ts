import type { Control, ExhibitManifest, ExhibitSetting } from '@plinth/shared';
import type { ScheduleChange } from './schedule-form';
import { allVisibleSettings, isHiddenId, pendingValueError } from './settings-tree';

/** What an event may change, read from the exhibit's manifest. */
export type ScheduleChoices = { controls: Control[]; settings: ExhibitSetting[]; content: ExhibitSetting[]; hasLists: boolean };

/** The controls, plain settings and content-service settings an event may change (hidden ids left out). */
export function scheduleChoicesOf(manifest: ExhibitManifest | undefined): ScheduleChoices {
  if (!manifest) return { controls: [], settings: [], content: [], hasLists: false };
  const all = allVisibleSettings(manifest);
  return {
    controls: manifest.controls.filter((c) => !isHiddenId(c.manifestId)).sort((a, b) => a.order - b.order),
    settings: all.filter((s) => s.type !== 'StrapiContent'),
    content: all.filter((s) => s.type === 'StrapiContent'),
    hasLists: manifest.settingLists.length > 0 || manifest.settingGroups.some((g) => g.settingLists.length > 0),
  };
}

/** The first problem of a setting value among the changes (an integer out of range, an option not offered), or null. */
export function changeValueProblem(changes: ScheduleChange[], choices: ScheduleChoices): string | null {
  for (const change of changes) {
    if (change.kind !== 'setting' || change.listName) continue;
    const setting = choices.settings.find((s) => s.manifestId === change.settingId);
    const problem = setting ? pendingValueError(setting, change.value) : null;
    if (problem) return `${setting!.display}: ${problem}`;
  }
  return null;
}
