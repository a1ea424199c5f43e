import { describe, expect, it } from 'vitest';
import { manifestBody, setting } from '../test/fixtures';
import { patchSettingValue, pendingValueError, resolveSettingsPath } from './settings-tree';

const manifest = manifestBody({
  settings: [setting({ manifestId: 'volume', type: 'IntegerInput', value: 5, min: 0, max: 10 })],
  settingGroups: [
    {
      id: 'g',
      manifestId: 'display',
      type: 'SettingsGroup',
      groupDisplay: 'Display',
      orderSelf: 0,
      settings: [setting({ manifestId: 'brightness', type: 'IntegerInput', value: 70 })],
      strapiContent: [],
      settingLists: [],
      settingGroups: [],
    },
  ],
}).manifest;

describe('settings tree', () => {
  it('drops path steps that no longer exist', () => {
    const at = resolveSettingsPath(manifest, [
      { kind: 'group', id: 'display' },
      { kind: 'list', id: 'gone' },
    ]);
    expect(at.kind).toBe('container');
    expect(at.crumbs).toEqual(['Display']);
    expect(at.path).toEqual([{ kind: 'group', id: 'display' }]);
  });

  it('applies a live value anywhere in the tree: saved is pending, acknowledged is applied', () => {
    const saved = patchSettingValue(manifest, 'brightness', 80, false);
    const brightness = () => saved.settingGroups[0]!.settings[0]!;
    expect(brightness()).toMatchObject({ value: 80, applied: false, version: 2, appliedVersion: 1 });
    const acked = patchSettingValue(saved, 'brightness', 80, true);
    expect(acked.settingGroups[0]!.settings[0]).toMatchObject({ value: 80, applied: true, version: 2, appliedVersion: 2 });
  });

  it('checks integers against their limits', () => {
    const volume = manifest.settings[0]!;
    expect(pendingValueError(volume, 7)).toBeNull();
    expect(pendingValueError(volume, 11)).toBe('Must be at most 10.');
    expect(pendingValueError(volume, null)).toBe('Enter a whole number.');
  });
});
