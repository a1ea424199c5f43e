import { describe, expect, it } from 'vitest';
import { can, effectiveRole, hasRole, parseRole } from './roles.js';

describe('roles', () => {
  it('accepts either case and nothing else', () => {
    expect(parseRole('manager')).toBe('MANAGER');
    expect(parseRole('Developer')).toBe('DEVELOPER');
    expect(parseRole('VIEWER')).toBe('VIEWER');
    expect(parseRole('owner')).toBeNull();
    expect(parseRole(3)).toBeNull();
  });

  it('ranks viewer < developer < manager and treats no grant as nothing', () => {
    expect(hasRole('MANAGER', 'DEVELOPER')).toBe(true);
    expect(hasRole('DEVELOPER', 'MANAGER')).toBe(false);
    expect(hasRole(null, 'VIEWER')).toBe(false);
  });

  it('lets the most specific grant win, even when it is lower', () => {
    expect(effectiveRole('VIEWER', 'MANAGER', 'MANAGER')).toBe('VIEWER');
    expect(effectiveRole(null, undefined, 'DEVELOPER')).toBe('DEVELOPER');
    expect(effectiveRole(null, null, null)).toBeNull();
  });

  it('maps rights as design.md section 3 says', () => {
    expect(can('VIEWER', 'fireControl')).toBe(true);
    expect(can('VIEWER', 'editSettings')).toBe(false);
    expect(can('DEVELOPER', 'manageDevices')).toBe(true);
    expect(can('DEVELOPER', 'manageUsers')).toBe(false);
    expect(can('DEVELOPER', 'deleteToken')).toBe(false);
    expect(can('MANAGER', 'deleteToken')).toBe(true);
  });
});
