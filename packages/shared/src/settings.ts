/** Ids of the settings the console treats specially. */
export const SETTING_IDS = {
  /** Organization: external content-manager config, JSON of ContentManagerConfig. */
  contentManager: 'content_manager_config',
  /** Organization: external analytics-tool config, JSON of AnalyticsConfig. */
  analytics: 'analytics_config',
  /** Site: the external analytics report URL embedded in the site's Reports tab. */
  reportUrl: 'external_report_url',
  /** Site: its IANA time zone (schedules recur in it, the calendar shows it); empty: the server's. */
  siteTimeZone: 'site_time_zone',
  /** Organization: 'true' when every password account with a role in it must use two-factor sign-in. */
  requireTwoFactor: 'require_two_factor',
  /** Organization: how many days its audit log keeps entries (DEFAULT_AUDIT_RETENTION_DAYS by default). */
  auditRetentionDays: 'audit_retention_days',
} as const;

/** `switch`: 'true' or 'false'; `days`: a whole number of days (MIN_AUDIT_RETENTION_DAYS to MAX_AUDIT_RETENTION_DAYS). */
export type SettingKind = 'text' | 'contentManager' | 'analytics' | 'reportUrl' | 'timeZone' | 'switch' | 'days';

export type SettingDefinition = {
  idString: string;
  display: string;
  kind: SettingKind;
  defaultValue: string;
  /** Organization settings marked inherited are shown, read-only, on every site of it. */
  inherited?: boolean;
};

/** Settings every organization is created with. */
export const ORGANIZATION_SETTINGS: readonly SettingDefinition[] = [
  { idString: SETTING_IDS.contentManager, display: 'Content Manager', kind: 'contentManager', defaultValue: '' },
  { idString: SETTING_IDS.analytics, display: 'Analytics', kind: 'analytics', defaultValue: '' },
  { idString: 'support_contact', display: 'Support Contact', kind: 'text', defaultValue: '', inherited: true },
  { idString: 'time_zone', display: 'Time Zone', kind: 'text', defaultValue: 'UTC', inherited: true },
  { idString: SETTING_IDS.requireTwoFactor, display: 'Require Two-Factor Sign-In', kind: 'switch', defaultValue: 'false' },
  { idString: SETTING_IDS.auditRetentionDays, display: 'Audit Log Retention (days)', kind: 'days', defaultValue: '365' },
];

/** Settings every site is created with. */
export const SITE_SETTINGS: readonly SettingDefinition[] = [
  { idString: SETTING_IDS.reportUrl, display: 'External Report URL', kind: 'reportUrl', defaultValue: '' },
  { idString: 'site_location', display: 'Location', kind: 'text', defaultValue: '' },
  { idString: 'opening_hours', display: 'Opening Hours', kind: 'text', defaultValue: '' },
  { idString: SETTING_IDS.siteTimeZone, display: 'Schedule Time Zone', kind: 'timeZone', defaultValue: '' },
];

/** True when `zone` is an IANA time zone name this runtime knows ('Europe/Paris', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 100) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function settingKind(idString: string): SettingKind {
  const def = [...ORGANIZATION_SETTINGS, ...SITE_SETTINGS].find((s) => s.idString === idString);
  return def?.kind ?? 'text';
}

/** True when the report URL starts with the allowed report-provider prefix. */
export function isAllowedReportUrl(url: string, prefix: string): boolean {
  return url.startsWith(prefix);
}
