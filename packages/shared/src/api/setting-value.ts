import { z } from 'zod';
import type { ManifestSetting } from './manifest.js';

/**
 * The rules of setting values: their types, the default of a setting whose definition gives none,
 * and the check of a new value against its setting. The SDK, the server and the console apply
 * the same rules. Depends on zod and the manifest definition only, so the SDK can compile it in.
 */

/** A setting value, typed by the setting's type (booleans for toggles, numbers for integers). */
export type SettingValue = boolean | number | string | null;
/** Values of one setting-list item (or of a whole exhibit), by setting manifest id. */
export type SettingValues = Record<string, SettingValue>;

/** Any setting value, before it is checked against its setting. */
export const SettingValueSchema = z.union([z.boolean(), z.number(), z.string(), z.null()]);

/** The default value of a setting, when its definition gives none: typed by setting type. */
export function defaultSettingValue(def: ManifestSetting): SettingValue {
  switch (def.type) {
    case 'Toggle':
      return def.default ?? false;
    case 'IntegerInput':
      return def.default ?? (def.min !== undefined && def.min > 0 ? def.min : 0);
    case 'Dropdown':
    case 'SingleButtonGroup':
      return def.default ?? [...def.items].sort(byOrder)[0]!.id;
    case 'Date':
    case 'StrapiContent':
      return def.default ?? null;
    default:
      return def.default ?? '';
  }
}

function byOrder(a: { order?: number }, b: { order?: number }): number {
  return (a.order ?? 0) - (b.order ?? 0);
}

/**
 * Checks a value against its setting; answers the typed value or an error message naming the
 * setting (`Setting "volume" needs an integer`). Never coerces "true" to true.
 */
export function checkSettingValue(
  def: ManifestSetting,
  value: unknown,
): { ok: true; value: SettingValue } | { ok: false; message: string } {
  const name = `Setting "${def.id}"`;
  switch (def.type) {
    case 'Toggle':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: `${name} needs true or false` };
    case 'IntegerInput':
      if (typeof value !== 'number' || !Number.isInteger(value)) return { ok: false, message: `${name} needs an integer` };
      if (def.min !== undefined && value < def.min) return { ok: false, message: `${name} must be at least ${def.min}` };
      if (def.max !== undefined && value > def.max) return { ok: false, message: `${name} must be at most ${def.max}` };
      return { ok: true, value };
    case 'Dropdown':
    case 'SingleButtonGroup':
      if (typeof value !== 'string' || !def.items.some((i) => i.id === value)) {
        return { ok: false, message: `${name} needs one of ${def.items.map((i) => `"${i.id}"`).join(', ')}` };
      }
      return { ok: true, value };
    case 'Date':
      if (value === null) return { ok: true, value };
      return typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? { ok: true, value }
        : { ok: false, message: `${name} needs an ISO date` };
    case 'StrapiContent':
      if (value === null) return { ok: true, value };
      return typeof value === 'string' && value.length <= 200 ? { ok: true, value } : { ok: false, message: `${name} needs a content id` };
    case 'TextInput':
    case 'TextAreaInput':
    case 'FileSelection': {
      const limit = def.type === 'TextAreaInput' ? 100_000 : def.type === 'FileSelection' ? 1000 : 10_000;
      if (typeof value !== 'string') return { ok: false, message: `${name} needs text` };
      if (value.length > limit) return { ok: false, message: `${name} must be at most ${limit} characters` };
      return { ok: true, value };
    }
  }
}
