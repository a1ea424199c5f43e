import { describe, expect, it } from 'vitest';
import { resolveExhibitTab, visibleExhibitTabs } from './exhibit-tabs';

describe('visibleExhibitTabs', () => {
  it('shows a manager every tab, a developer all but users, a viewer the basic seven', () => {
    expect(visibleExhibitTabs('MANAGER')).toEqual([
      'overview',
      'controls',
      'settings',
      'hardware',
      'files',
      'logs',
      'reports',
      'scheduling',
      'users',
      'notifications',
      'auth',
    ]);
    expect(visibleExhibitTabs('DEVELOPER')).toEqual([
      'overview',
      'controls',
      'settings',
      'hardware',
      'files',
      'logs',
      'reports',
      'scheduling',
      'notifications',
      'auth',
    ]);
    expect(visibleExhibitTabs('VIEWER')).toEqual(['overview', 'controls', 'settings', 'hardware', 'files', 'logs', 'reports']);
    expect(visibleExhibitTabs(null)).toEqual(visibleExhibitTabs('VIEWER'));
  });
});

describe('resolveExhibitTab', () => {
  it('falls back to overview for unknown and non-permitted tabs', () => {
    expect(resolveExhibitTab('settings', 'VIEWER')).toBe('settings');
    expect(resolveExhibitTab('auth', 'VIEWER')).toBe('overview');
    expect(resolveExhibitTab('users', 'DEVELOPER')).toBe('overview');
    expect(resolveExhibitTab('users', 'MANAGER')).toBe('users');
    expect(resolveExhibitTab('bogus', 'MANAGER')).toBe('overview');
    expect(resolveExhibitTab(undefined, 'MANAGER')).toBe('overview');
  });
});
