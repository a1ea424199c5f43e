import type { ExhibitSetting, ManifestResponse, SettingGroup, SettingList } from '@plinth/shared';
import { GROUP_SEPARATOR } from './manifest-converter.js';

/**
 * Plinth's answers in the shapes the Gumband SDK reads (lib/exhibit.js, lib/index.js of
 * `@deeplocal/gumband-node-sdk`). Each item's `id` is what the SDK puts in its REST paths (the
 * Plinth manifest id, which holds no "/"); `manifestId` is the name the exhibit's code uses
 * (`group/child` inside a settings group or a status group).
 */

/** Values travel as strings, as Gumband's server stores them; the SDK turns "true"/"false" back into booleans. */
export function gumbandValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The Gumband name of a Plinth status id (a flattened status group's child: `group/child`). */
export function gumbandStatusName(plinthId: string): string {
  return plinthId.split(GROUP_SEPARATOR).join('/');
}

export type GumbandSetting = ReturnType<typeof presentSetting>;

function presentSetting(setting: ExhibitSetting, path: string) {
  return {
    id: setting.manifestId,
    manifestId: path ? `${path}/${setting.manifestId}` : setting.manifestId,
    type: setting.type,
    display: setting.display,
    value: gumbandValue(setting.value),
    default: gumbandValue(setting.default),
    items: setting.items,
    enabledOpMode: setting.enabledOpMode,
    order: setting.order,
  };
}

function presentList(list: SettingList, path: string) {
  return {
    id: list.manifestId,
    manifestId: path ? `${path}/${list.manifestId}` : list.manifestId,
    type: 'SettingsList',
    display: list.listDisplay,
    order: list.order,
    schema: list.settings.map((s) => presentSetting(s, '')),
    settinglistitems: list.settinglistitems.map((item) => ({
      listName: item.listName,
      order: item.order,
      settings: item.items.map((s) => presentSetting(s, `${list.manifestId}/${item.listName}`)),
    })),
  };
}

/** Every setting and list under a group, flattened with its path (`group/child`). */
function collect(group: Pick<SettingGroup, 'settings' | 'strapiContent' | 'settingLists' | 'settingGroups'>, path: string, into: Flattened): void {
  into.settings.push(...group.settings.map((s) => presentSetting(s, path)));
  into.strapiContent.push(...group.strapiContent.map((s) => presentSetting(s, path)));
  into.settingLists.push(...group.settingLists.map((l) => presentList(l, path)));
  for (const sub of group.settingGroups) collect(sub, path ? `${path}/${sub.manifestId}` : sub.manifestId, into);
}

type Flattened = { settings: GumbandSetting[]; strapiContent: GumbandSetting[]; settingLists: ReturnType<typeof presentList>[] };

/** GET .../manifest: `{manifest: {statuses, controls, settings, settingLists, strapiContent, opMode, manifestLocked}}`. */
export function presentGumbandManifest(exhibitId: string, response: ManifestResponse) {
  const { manifest } = response;
  const flat: Flattened = { settings: [], strapiContent: [], settingLists: [] };
  collect(manifest, '', flat);
  return {
    manifest: {
      exhibitId,
      statuses: manifest.statuses.map((s) => ({
        id: s.manifestId,
        manifestId: gumbandStatusName(s.manifestId),
        type: s.type,
        display: s.display,
        value: gumbandValue(s.value),
        default: gumbandValue(s.default),
        order: s.order,
      })),
      controls: manifest.controls.map((c) => ({
        id: c.manifestId,
        manifestId: c.manifestId,
        type: c.type,
        display: c.display,
        enabledOpMode: c.enabledOpMode,
        order: c.order,
        items: c.items.map((i) => ({ id: i.id, manifestId: `${c.manifestId}/${i.id}`, display: i.display, order: i.order })),
      })),
      ...flat,
      opMode: response.opMode,
      manifestLocked: response.manifestLocked,
    },
  };
}

/** Where each setting and list of the manifest sits, for the socket's events: Plinth id → Gumband name. */
export function gumbandNames(response: ManifestResponse): Map<string, string> {
  const flat: Flattened = { settings: [], strapiContent: [], settingLists: [] };
  collect(response.manifest, '', flat);
  return new Map([...flat.settings, ...flat.strapiContent, ...flat.settingLists].map((item) => [item.id, item.manifestId]));
}

/** A setting of the flattened manifest by the id the SDK sent (Plinth id or Gumband name). */
export function findGumbandSetting(response: ManifestResponse, key: string): GumbandSetting | undefined {
  const flat: Flattened = { settings: [], strapiContent: [], settingLists: [] };
  collect(response.manifest, '', flat);
  return [...flat.settings, ...flat.strapiContent].find((s) => s.id === key || s.manifestId === key);
}
