import { describe, expect, it } from 'vitest';
import { manifestBody, setting } from '../test/fixtures';
import { mergeManifestRead, patchSettingValue, pendingValueError, resolveSettingsPath } from './settings-tree';

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
    const saved = patchSettingValue(manifest, { settingId: 'brightness', value: 80, applied: false, version: 2 });
    const brightness = () => saved.settingGroups[0]!.settings[0]!;
    expect(brightness()).toMatchObject({ value: 80, applied: false, version: 2, appliedVersion: 1 });
    const acked = patchSettingValue(saved, { settingId: 'brightness', value: 80, applied: true, version: 2 });
    expect(acked.settingGroups[0]!.settings[0]).toMatchObject({ value: 80, applied: true, version: 2, appliedVersion: 2 });
  });

  it('ignores a live event older than the state it holds', () => {
    const acked = patchSettingValue(manifest, { settingId: 'volume', value: 8, applied: true, version: 3 });
    const late = patchSettingValue(acked, { settingId: 'volume', value: 8, applied: false, version: 3 });
    expect(late.settings[0]).toMatchObject({ value: 8, applied: true, version: 3, appliedVersion: 3 });
    const older = patchSettingValue(acked, { settingId: 'volume', value: 6, applied: true, version: 2 });
    expect(older.settings[0]).toMatchObject({ value: 8, version: 3 });
  });

  it('keeps a live "applied" that arrived before a read answered before the acknowledgement', () => {
    // The console saved brightness (version 2) and refetched; the exhibit's acknowledgement came live
    // first, then the read, taken before the acknowledgement, arrived saying "not applied".
    const live = patchSettingValue(manifest, { settingId: 'brightness', value: 80, applied: true, version: 2 });
    const staleRead = patchSettingValue(manifest, { settingId: 'brightness', value: 80, applied: false, version: 2 });
    const merged = mergeManifestRead(live, staleRead);
    expect(merged.settingGroups[0]!.settings[0]).toMatchObject({ value: 80, applied: true, version: 2, appliedVersion: 2 });
    // A read that is newer than the held state wins (someone saved again meanwhile).
    const newerRead = patchSettingValue(manifest, { settingId: 'brightness', value: 90, applied: false, version: 3 });
    expect(mergeManifestRead(live, newerRead).settingGroups[0]!.settings[0]).toMatchObject({ value: 90, applied: false, version: 3 });
    expect(mergeManifestRead(undefined, staleRead)).toBe(staleRead);
  });

  it('checks integers against their limits', () => {
    const volume = manifest.settings[0]!;
    expect(pendingValueError(volume, 7)).toBeNull();
    expect(pendingValueError(volume, 11)).toBe('Must be at most 10.');
    expect(pendingValueError(volume, null)).toBe('Enter a whole number.');
  });
});
