/** Who a permission list belongs to: the users of an organization or of a site. */
export type PermissionScope = 'organization' | 'site';

/** The two kinds of device that log and report. */
export type DeviceKind = 'exhibit' | 'hardware';

/** One page of a device's log history: the range (epoch ms), the page and the levels shown. */
export type LogPageKey = { start: number; end: number; pageIdx: number; levels: string };

/** One exhibit report: the range (epoch ms), the bucket width in seconds, the grouping and the viewer's zone. */
export type ExhibitReportKey = { start: number; end: number; interval: number; filter: 'value' | null; timeZone: string };

/** The range of scheduled events a calendar shows (ISO date-times). */
export type ScheduleRangeKey = { start: string; end: string };

/** One page of an organization's audit log: its filters (as sent) and the cursor of the page. */
export type AuditPageKey = Record<string, string | number | undefined>;

/** The hardware report's window (epoch ms) and the viewer's zone. */
export type HardwareReportKey = { start: number; end: number; timeZone: string };

/**
 * Every TanStack Query key of the console, in one place, so that the features' queries, their
 * mutations' invalidations and the realtime cache patcher (`lib/realtime-context.tsx`) agree.
 */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  loginMethods: ['auth', 'login-methods'] as const,
  /** The signed-in user's two-factor sign-in state. */
  twoFactor: ['auth', 'two-factor'] as const,
  /** One reset-password, create-account or setup link check. */
  accountLink: (resetUrlId: string) => ['auth', 'account-link', resetUrlId] as const,
  config: ['config'] as const,
  organizations: ['organizations'] as const,
  organization: (id: string) => ['organization', id] as const,
  organizationSites: (id: string) => ['organization', id, 'sites'] as const,
  /** The organization's API keys (its managers only). */
  organizationApiKeys: (id: string) => ['organization', id, 'api-keys'] as const,
  sites: ['sites'] as const,
  site: (id: string) => ['site', id] as const,
  siteSettings: (id: string) => ['site', id, 'settings'] as const,
  /** All exhibit lists start with 'exhibits'. */
  exhibits: ['exhibits'] as const,
  exhibitsBySites: (siteIds: string[]) => ['exhibits', 'by-sites', [...siteIds].sort().join(',')] as const,
  /** Every exhibit record (`exhibit(id)`) starts with 'exhibit'. */
  exhibitRecords: ['exhibit'] as const,
  exhibit: (id: string) => ['exhibit', id] as const,
  /** Exhibit runtime data (manifest with live values, tokens). */
  exhibitManifest: (id: string) => ['exhibit-runtime', id, 'manifest'] as const,
  exhibitTokens: (id: string) => ['exhibit-runtime', id, 'tokens'] as const,
  /** The files an exhibit shows (its leader's for a follower) and the organizational ones; live file events invalidate it. */
  exhibitFiles: (id: string) => ['exhibit-runtime', id, 'files'] as const,
  /** Every read of an exhibit's scheduled events (all ranges); writes and live schedule events invalidate it. */
  exhibitSchedules: (id: string) => ['exhibit-runtime', id, 'schedules'] as const,
  /** The scheduled events of one calendar range (ISO start and end). */
  exhibitSchedulesRange: (id: string, range: ScheduleRangeKey) => ['exhibit-runtime', id, 'schedules', range] as const,
  /** The content-manager entries a StrapiContent setting of an exhibit offers (pages). */
  strapiContent: (exhibitId: string, settingId: string) => ['strapi-content', exhibitId, settingId] as const,
  /** All hardware lists start with 'hardware-list'. */
  hardwareLists: ['hardware-list'] as const,
  hardwareBySite: (siteId: string) => ['hardware-list', 'site', siteId] as const,
  hardwareBySites: (siteIds: string[]) => ['hardware-list', 'sites', [...siteIds].sort().join(',')] as const,
  hardwareByExhibit: (exhibitId: string) => ['hardware-list', 'exhibit', exhibitId] as const,
  hardware: (id: string) => ['hardware', id] as const,
  hardwareTokens: (id: string) => ['hardware', id, 'tokens'] as const,
  hardwareFirmware: (id: string) => ['hardware', id, 'firmware'] as const,
  /** Everything about the people of an exhibit (users, granular levels, notification toggles); `exhibit.usersChanged` invalidates it. */
  exhibitPeople: (id: string) => ['exhibit-people', id] as const,
  exhibitUsers: (id: string) => ['exhibit-people', id, 'users'] as const,
  /** One exhibit user's per-item levels. */
  exhibitGranular: (id: string, userId: string) => ['exhibit-people', id, 'granular', userId] as const,
  exhibitNotifications: (id: string) => ['exhibit-people', id, 'notifications'] as const,
  /** The users of an organization or a site. */
  permissions: (scope: PermissionScope, id: string) => ['permissions', scope, id] as const,
  /** All log pages of one device start with ['logs', kind, id]. */
  logs: (kind: DeviceKind, id: string) => ['logs', kind, id] as const,
  logPage: (kind: DeviceKind, id: string, page: LogPageKey) => ['logs', kind, id, page] as const,
  /** Reports are read afresh on Fetch; they sit apart from the device records, which live events invalidate. */
  exhibitReport: (id: string, report: ExhibitReportKey) => ['report', 'exhibit', id, report] as const,
  hardwareReport: (id: string, report: HardwareReportKey) => ['report', 'hardware', id, report] as const,
  /** One page of an organization's audit log (read afresh each time it is shown). */
  auditPage: (organizationId: string, page: AuditPageKey) => ['audit', organizationId, page] as const,
};
