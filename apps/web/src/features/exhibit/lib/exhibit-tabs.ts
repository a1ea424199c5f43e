import type { Role } from '@plinth/shared';

/** The tabs of the exhibit screen, in display order (spec 2.1). */
export const EXHIBIT_TABS = [
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
] as const;
export type ExhibitTab = (typeof EXHIBIT_TABS)[number];

export const EXHIBIT_TAB_LABELS: Record<ExhibitTab, string> = {
  overview: 'Overview',
  controls: 'Controls',
  settings: 'Settings',
  hardware: 'Hardware',
  files: 'Files',
  logs: 'Logs',
  reports: 'Reports',
  scheduling: 'Scheduling',
  users: 'Users',
  notifications: 'Notifications',
  auth: 'Auth',
};

const BASIC_TABS: readonly ExhibitTab[] = ['overview', 'controls', 'settings', 'hardware', 'files', 'logs', 'reports'];

/** Tabs the role may see: MANAGER all, DEVELOPER all but users, anyone else the basic seven. */
export function visibleExhibitTabs(role: Role | null | undefined): ExhibitTab[] {
  if (role === 'MANAGER') return [...EXHIBIT_TABS];
  if (role === 'DEVELOPER') return EXHIBIT_TABS.filter((t) => t !== 'users');
  return EXHIBIT_TABS.filter((t) => BASIC_TABS.includes(t));
}

/** The tab to show for a route value: itself when known and permitted, else overview. */
export function resolveExhibitTab(value: string | undefined, role: Role | null | undefined): ExhibitTab {
  const visible = visibleExhibitTabs(role);
  return visible.find((t) => t === value) ?? 'overview';
}
