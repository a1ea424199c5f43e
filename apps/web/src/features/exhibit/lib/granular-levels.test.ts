import { describe, expect, it } from 'vitest';
import type { GranularPermissions, ItemPermission } from '@plinth/shared';
import { changedLevels, countChanges, isAboveMax, maxLevelReason } from './granular-levels';

const item = (id: string, level: ItemPermission['level'], maxLevel: ItemPermission['maxLevel']): ItemPermission => ({
  id,
  display: id,
  level,
  read: level !== 'hidden',
  write: level === 'read_write',
  maxLevel,
});

const stored: GranularPermissions = {
  exhibitId: '00000000-0000-4000-8000-0000000000e1',
  userId: '00000000-0000-4000-8000-0000000000b1',
  email: 'bob@example.org',
  role: 'VIEWER',
  statuspermissions: [item('temp', 'read', 'read')],
  settingpermissions: [item('volume', 'read', 'read'), item('mode', 'hidden', 'read')],
  settinglistpermissions: [],
  controlpermissions: [item('restart', 'read_write', 'read_write')],
};

describe('granular levels', () => {
  it('offers nothing above the role cap, and says why', () => {
    expect(isAboveMax(item('x', 'read', 'read'), 'read_write')).toBe(true);
    expect(isAboveMax(item('x', 'read', 'read'), 'hidden')).toBe(false);
    expect(isAboveMax(item('x', 'hidden', 'hidden'), 'read')).toBe(true);
    expect(maxLevelReason(item('x', 'read', 'read'))).toBe('Their role allows at most Read');
  });

  it('lists only the edits that change a stored level, and none the role no longer allows', () => {
    const edits = {
      statuspermissions: { temp: 'hidden' as const },
      settingpermissions: { volume: 'read' as const, mode: 'read_write' as const },
      controlpermissions: { restart: 'read' as const, gone: 'hidden' as const },
    };
    expect(changedLevels(stored, edits)).toEqual({
      statuspermissions: [{ id: 'temp', level: 'hidden' }],
      settingpermissions: [],
      settinglistpermissions: [],
      controlpermissions: [{ id: 'restart', level: 'read' }],
    });
    expect(countChanges(stored, edits)).toBe(2);
    expect(countChanges(stored, {})).toBe(0);
  });
});
