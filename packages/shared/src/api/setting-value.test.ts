import { describe, expect, it } from 'vitest';
import type { ManifestSetting } from './manifest.js';
import { checkSettingValue, defaultSettingValue, SettingValueSchema } from './setting-value.js';

const setting = (def: Record<string, unknown>) => def as ManifestSetting;

describe('setting values: the rules the SDK, the server and the console share', () => {
  it('gives each type its default when the definition has none', () => {
    expect(defaultSettingValue(setting({ id: 'on', type: 'Toggle' }))).toBe(false);
    expect(defaultSettingValue(setting({ id: 'n', type: 'IntegerInput', min: 3 }))).toBe(3);
    expect(defaultSettingValue(setting({ id: 'n', type: 'IntegerInput', min: -3 }))).toBe(0);
    expect(
      defaultSettingValue(setting({ id: 'd', type: 'Dropdown', items: [{ id: 'b', order: 2 }, { id: 'a', order: 1 }] })),
    ).toBe('a');
    expect(defaultSettingValue(setting({ id: 'when', type: 'Date' }))).toBeNull();
    expect(defaultSettingValue(setting({ id: 't', type: 'TextInput' }))).toBe('');
    expect(defaultSettingValue(setting({ id: 't', type: 'TextInput', default: 'hi' }))).toBe('hi');
  });

  it('checks a value against its setting, naming the setting, and never coerces', () => {
    const volume = setting({ id: 'volume', type: 'IntegerInput', min: 0, max: 10 });
    expect(checkSettingValue(volume, 4)).toEqual({ ok: true, value: 4 });
    expect(checkSettingValue(volume, '4')).toEqual({ ok: false, message: 'Setting "volume" needs an integer' });
    expect(checkSettingValue(volume, 11)).toEqual({ ok: false, message: 'Setting "volume" must be at most 10' });
    expect(checkSettingValue(setting({ id: 'on', type: 'Toggle' }), 'true')).toEqual({
      ok: false,
      message: 'Setting "on" needs true or false',
    });
    expect(checkSettingValue(setting({ id: 'when', type: 'Date' }), null)).toEqual({ ok: true, value: null });
  });

  it('reads any plain value before it is checked, and nothing nested', () => {
    for (const value of [true, 1.5, 'text', null]) expect(SettingValueSchema.safeParse(value).success).toBe(true);
    expect(SettingValueSchema.safeParse({ nested: 1 }).success).toBe(false);
  });
});
