import type { z } from 'zod';
import {
  AnalyticsConfigSchema,
  ContentManagerConfigInputSchema,
  isAllowedReportUrl,
  isTimeZone,
  MAX_AUDIT_RETENTION_DAYS,
  MIN_AUDIT_RETENTION_DAYS,
  settingKind,
  type Setting,
  type SettingKind,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import type { AuditContext } from '../audit/audit-context.js';
import { sealContentManagerConfig } from '../content-manager/content-manager-config.service.js';
import { requireOrganization } from '../organization/organization.service.js';
import { requireSite } from '../site/site.service.js';
import { presentSetting } from './settings.presenter.js';
import {
  findSettingRow,
  listSettingRowsShownOnSite,
  updateSettingValue,
  type SettingOwner,
  type SettingScope,
} from './settings.repository.js';

/** Shown when a site tries to change a setting it inherits from its organization. */
export const INHERITED_SETTING_MESSAGE = 'This field may only be modified at the organization level.';

/** A new value for one setting of an organization or a site, and who sets it (recorded in the audit log). */
export type SettingChange = { owner: SettingOwner; idString: string; value: string; audit: AuditContext };

/** Where a change may be saved: the owner, and for a site the organization whose inherited settings it may not change. */
type SettingAccess = { owner: SettingOwner; organizationId: string; inheritsFrom?: string };

/**
 * Who may change each scope's settings (design.md §3): an organization's, its managers (and
 * platform admins); a site's own, DEVELOPER and up on the site.
 */
const SETTING_ACCESS: Record<SettingScope, (deps: AppDeps, grants: Grants, id: string) => Promise<SettingAccess>> = {
  organization: async (deps, grants, id) => {
    await requireOrganization(deps, grants, { id, right: 'administer' });
    return { owner: { scope: 'organization', id }, organizationId: id };
  },
  site: async (deps, grants, id) => {
    const site = await requireSite(deps, grants, { id, right: 'editSettings' });
    return { owner: { scope: 'site', id: site.id }, organizationId: site.organizationId, inheritsFrom: site.organizationId };
  },
};

/**
 * Saves one organization or site setting, checked against its kind; content-manager passwords are
 * sealed. Unknown: 404; a site's inherited one: 403 naming the organization level.
 */
export async function updateSetting(deps: AppDeps, grants: Grants, change: SettingChange): Promise<Setting> {
  const access = await SETTING_ACCESS[change.owner.scope](deps, grants, change.owner.id);
  const { owner } = access;
  const { idString } = change;
  const setting = await findSettingRow(deps.db, owner, idString);
  if (!setting) throw await missingSettingError(deps, { ...access, idString });
  const kind = settingKind(idString);
  const checked = validateSettingValue(kind, change.value, deps.config.REPORT_URL_PREFIX);
  const stored =
    kind === 'contentManager' ? sealContentManagerConfig(deps.secrets, { organizationId: owner.id, checked, stored: setting.value }) : checked;
  const saved = await updateSettingValue(deps.db, { scope: owner.scope, id: setting.id }, stored);
  await deps.audit.record(change.audit, {
    organizationId: access.organizationId,
    siteId: owner.scope === 'site' ? owner.id : null,
    resource: owner.scope === 'site' ? 'siteSetting' : 'organizationSetting',
    resourceId: idString,
    action: 'update',
    before: { value: setting.value },
    after: { value: saved.value },
  });
  return presentSetting(saved);
}

/** Why a setting is not there to save: a site's inherited one (403), or none of that name (404). */
async function missingSettingError(deps: AppDeps, missing: SettingAccess & { idString: string }): Promise<AppError> {
  if (missing.inheritsFrom) {
    const inherited = await findSettingRow(deps.db, { scope: 'organization', id: missing.inheritsFrom }, missing.idString);
    if (inherited?.inherited) return new AppError('Forbidden', INHERITED_SETTING_MESSAGE);
  }
  return new AppError('NotFound', `There is no such ${missing.owner.scope} setting.`);
}

/** The settings a site shows (its organization's inherited ones, then its own); reading them needs a role on the site. */
export async function getSiteSettings(deps: AppDeps, grants: Grants, siteId: string): Promise<{ siteSettings: Setting[] }> {
  const site = await requireSite(deps, grants, { id: siteId, right: 'view' });
  return { siteSettings: (await listSettingRowsShownOnSite(deps.db, site)).map(presentSetting) };
}

/**
 * Checks a new setting value against its kind and answers the value to store: the JSON configs
 * are stored normalised (every field present), other values as given. Throws a 400 naming the
 * problem. The content-manager config's passwords come out as given (left out, '', null or a new
 * one): content-manager-config.service.ts seals them before storage.
 */
export function validateSettingValue(kind: SettingKind, value: string, reportUrlPrefix: string): string {
  switch (kind) {
    case 'contentManager': {
      if (value === '') return value;
      const config = parseJsonConfig(value, ContentManagerConfigInputSchema, 'content manager');
      if (config.url !== '' && !isHttpUrl(config.url)) {
        throw invalid('value.url: the content manager URL must be an http or https URL');
      }
      return JSON.stringify({ ...config, url: config.url.replace(/\/+$/, '') });
    }
    case 'analytics':
      if (value === '') return value;
      return JSON.stringify(parseJsonConfig(value, AnalyticsConfigSchema, 'analytics'));
    case 'reportUrl':
      if (value !== '' && !isAllowedReportUrl(value, reportUrlPrefix)) {
        throw invalid(`The site report URL must start with ${reportUrlPrefix}`);
      }
      return value;
    case 'timeZone':
      if (value !== '' && !isTimeZone(value)) throw invalid(`value: "${value}" is not a time zone name (IANA, such as Europe/Paris or America/New_York)`);
      return value;
    case 'switch':
      if (value !== 'true' && value !== 'false') throw invalid('value: must be "true" or "false"');
      return value;
    case 'days': {
      const days = /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : NaN;
      if (!(days >= MIN_AUDIT_RETENTION_DAYS && days <= MAX_AUDIT_RETENTION_DAYS)) {
        throw invalid(`value: must be a whole number of days from ${MIN_AUDIT_RETENTION_DAYS} to ${MAX_AUDIT_RETENTION_DAYS}`);
      }
      return String(days);
    }
    case 'text':
      return value;
  }
}

function parseJsonConfig<T extends z.ZodType>(value: string, schema: T, what: string): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw invalid(`value: the ${what} config must be JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `value${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`)
      .join('; ');
    throw invalid(problems);
  }
  return parsed.data;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function invalid(message: string): AppError {
  return new AppError('ValidationError', message);
}
