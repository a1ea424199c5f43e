import { parseManifest, type Manifest, type ManifestInput } from '@plinth/shared';

/**
 * Gumband's manifest (`{"manifest": {statuses, controls, settings}}`, the item types of
 * `@deeplocal/gumband-node-sdk`) into Plinth's. Plinth's manifest was modelled on Gumband's, so
 * most items pass as they are; what differs is said in `changes`:
 * - `SettingsGroup` and `SettingsList` settings (their children in `schema`) become
 *   `settingGroups` and `settingLists`; a list or group nested in a list is left out.
 * - A `Group` status (its children in `items`) becomes one status per child, id
 *   `group~child` (Plinth ids hold no "/"; the SDK still sees `group/child`).
 * - `HexColor` statuses become `Color`; `HexColor` settings become `TextInput`.
 * - Defaults written as strings ("60", "true") take the setting's type; a `value` key is dropped
 *   (values live in Plinth, not in the manifest).
 */

/** What stands for "/" in the Plinth id of a flattened Gumband status group's child. */
export const GROUP_SEPARATOR = '~';

export type ConvertedManifest = { manifest: ManifestInput; changes: string[] };
type Item = Record<string, unknown>;
type SettingOut = Record<string, unknown>;
type Container = { settings: SettingOut[]; settingLists: Item[]; settingGroups: Item[] };

export class ManifestConversionError extends Error {}

/** Converts and validates; throws ManifestConversionError naming the first problem. */
export function convertGumbandManifest(input: unknown): { manifest: Manifest; changes: string[] } {
  const converted = toPlinthManifest(input);
  const parsed = parseManifest(converted.manifest);
  if (!parsed.success) throw new ManifestConversionError(parsed.message);
  return { manifest: parsed.manifest, changes: converted.changes };
}

/** The conversion itself, before Plinth's validation (the CLI prints it as it is). */
export function toPlinthManifest(input: unknown): ConvertedManifest {
  const body = isObject(input) && isObject(input.manifest) ? input.manifest : input;
  if (!isObject(body)) throw new ManifestConversionError('The manifest must be a JSON object (Gumband\'s {"manifest": {...}} or a bare one).');
  const changes: string[] = [];
  const statuses = arrayOf(body.statuses).flatMap((s) => convertStatus(s, changes));
  const controls = arrayOf(body.controls).map((c) => convertControl(c));
  const top: Container = { settings: [], settingLists: [], settingGroups: [] };
  for (const setting of [...arrayOf(body.settings), ...arrayOf(body.strapiContent)]) convertInto(top, setting, { changes, inList: null });
  for (const key of Object.keys(body).filter((k) => !['statuses', 'controls', 'settings', 'strapiContent', 'settingLists', 'settingGroups'].includes(k))) {
    changes.push(`"${key}": not a part of a Plinth manifest; left out`);
  }
  // A manifest already in Plinth's form keeps its lists and groups.
  const manifest: ManifestInput = {
    statuses: statuses as ManifestInput['statuses'],
    controls: controls as ManifestInput['controls'],
    settings: top.settings as ManifestInput['settings'],
    settingLists: [...top.settingLists, ...arrayOf(body.settingLists)] as ManifestInput['settingLists'],
    settingGroups: [...top.settingGroups, ...arrayOf(body.settingGroups)] as ManifestInput['settingGroups'],
  };
  return { manifest, changes };
}

function convertStatus(status: Item, changes: string[]): Item[] {
  if (status.type === 'Group') {
    const groupId = String(status.id);
    const children = arrayOf(status.items);
    changes.push(`status group "${groupId}": its ${children.length} statuses become top-level statuses "${groupId}${GROUP_SEPARATOR}<id>"`);
    return children.flatMap((child) =>
      convertStatus({ ...child, id: `${groupId}${GROUP_SEPARATOR}${String(child.id)}`, display: joinDisplay(status.display, child.display ?? child.id) }, changes),
    );
  }
  const out: Item = pick(status, ['id', 'display', 'order']);
  out.type = status.type === 'HexColor' ? 'Color' : (status.type ?? 'String');
  if (status.type === 'HexColor') changes.push(`status "${String(status.id)}": type HexColor becomes Color`);
  if (status.default !== undefined) out.default = out.type === 'Integer' ? toNumber(status.default) : status.default === null ? null : String(status.default);
  if (status.value !== undefined) changes.push(`status "${String(status.id)}": its "value" is left out (Plinth stores values, the exhibit sets them)`);
  return [out];
}

function convertControl(control: Item): Item {
  const out: Item = pick(control, ['id', 'display', 'order', 'enabledOpMode']);
  out.type = control.type ?? 'Single';
  if (control.type === 'Group') out.items = arrayOf(control.items).map((item) => pick(item, ['id', 'display', 'order']));
  return out;
}

type Place = { changes: string[]; inList: string | null };

/** Adds one Gumband setting (or container) to `into`. */
function convertInto(into: Container, setting: Item, place: Place): void {
  const id = String(setting.id);
  if (setting.type === 'SettingsGroup' || setting.type === 'SettingsList') {
    if (place.inList !== null) {
      place.changes.push(`"${place.inList}/${id}": a ${String(setting.type)} inside a settings list has no Plinth equivalent; left out`);
      return;
    }
    const inner: Container = { settings: [], settingLists: [], settingGroups: [] };
    const isList = setting.type === 'SettingsList';
    for (const child of arrayOf(setting.schema ?? setting.settings)) convertInto(inner, child, { changes: place.changes, inList: isList ? id : null });
    if (isList) {
      into.settingLists.push({ id, listDisplay: setting.display, ...pick(setting, ['order', 'enabledOpMode']), settings: inner.settings });
    } else {
      into.settingGroups.push({ id, groupDisplay: setting.display, ...pick(setting, ['order']), ...inner });
    }
    return;
  }
  into.settings.push(convertSetting(setting, place.changes));
}

function convertSetting(setting: Item, changes: string[]): SettingOut {
  const id = String(setting.id);
  const out: SettingOut = pick(setting, ['id', 'display', 'order', 'enabledOpMode', 'min', 'max', 'items', 'contentType', 'displayFieldName']);
  out.type = setting.type === 'HexColor' ? 'TextInput' : setting.type;
  if (setting.type === 'HexColor') changes.push(`setting "${id}": type HexColor becomes TextInput (Plinth has no color picker; the value stays a "#rrggbb" text)`);
  if (Array.isArray(out.items)) out.items = arrayOf(out.items).map((item) => pick(item, ['id', 'display', 'order']));
  if (setting.value !== undefined) changes.push(`setting "${id}": its "value" is left out (the console sets values)`);
  if (setting.default === undefined) return out;
  const value = convertDefault(out.type, setting.default);
  if (value === undefined) changes.push(`setting "${id}": default ${JSON.stringify(setting.default)} does not fit ${String(out.type)}; left out`);
  else {
    if (typeof setting.default === 'string' && typeof value !== 'string') changes.push(`setting "${id}": default "${setting.default}" becomes ${JSON.stringify(value)}`);
    out.default = value;
  }
  return out;
}

/** A default in the setting's type, or undefined when it cannot be one. */
function convertDefault(type: unknown, value: unknown): unknown {
  if (type === 'Toggle') return value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  if (type === 'IntegerInput') {
    const number = toNumber(value);
    return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
  }
  if (type === 'Date') return value === '' || value === null ? null : String(value);
  if (value === null) return undefined;
  return typeof value === 'object' ? undefined : String(value);
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

function joinDisplay(group: unknown, child: unknown): string {
  return group ? `${String(group)} › ${String(child)}` : String(child);
}

function pick(item: Item, keys: string[]): Item {
  const out: Item = {};
  for (const key of keys) if (item[key] !== undefined) out[key] = item[key];
  return out;
}

function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): Item[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
