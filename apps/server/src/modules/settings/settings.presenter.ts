import { settingKind, type Setting } from '@plinth/shared';
import type { organizationSettings, siteSettings } from '../../db/schema.js';

export type OrganizationSettingRow = typeof organizationSettings.$inferSelect;
export type SiteSettingRow = typeof siteSettings.$inferSelect;

/** The password fields of the content-manager config, which only organization admins may read. */
const SECRET_FIELDS = ['adminPassword', 'editorPassword', 'apiPassword'] as const;

/**
 * An organization setting as the console reads it (OrganizationId set, SiteId null). Without
 * `revealSecrets` the content-manager passwords are blanked.
 */
export function presentOrganizationSetting(row: OrganizationSettingRow, options: { revealSecrets: boolean }): Setting {
  const kind = settingKind(row.idString);
  return {
    id: row.id,
    idString: row.idString,
    display: row.display,
    value: kind === 'contentManager' && !options.revealSecrets ? blankSecrets(row.value) : row.value,
    kind,
    OrganizationId: row.organizationId,
    SiteId: null,
  };
}

/** A site's own setting (SiteId set, OrganizationId null). */
export function presentSiteSetting(row: SiteSettingRow): Setting {
  return {
    id: row.id,
    idString: row.idString,
    display: row.display,
    value: row.value,
    kind: settingKind(row.idString),
    OrganizationId: null,
    SiteId: row.siteId,
  };
}

/** The config JSON with every password emptied; a value that is not a JSON object reveals nothing. */
function blankSecrets(value: string): string {
  if (value === '') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return '';
    const copy: Record<string, unknown> = { ...(parsed as Record<string, unknown>) };
    for (const field of SECRET_FIELDS) if (field in copy) copy[field] = '';
    return JSON.stringify(copy);
  } catch {
    return '';
  }
}
