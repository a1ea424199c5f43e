import { settingKind, type Setting } from '@plinth/shared';
import type { organizationSettings, siteSettings } from '../../db/schema.js';
import { contentManagerConfigView } from '../content-manager/content-manager-config.service.js';

export type OrganizationSettingRow = typeof organizationSettings.$inferSelect;
export type SiteSettingRow = typeof siteSettings.$inferSelect;

/**
 * An organization setting as the console reads it (OrganizationId set, SiteId null). The
 * content-manager config shows whether each password is set, never the password.
 */
export function presentOrganizationSetting(row: OrganizationSettingRow): Setting {
  const kind = settingKind(row.idString);
  return {
    id: row.id,
    idString: row.idString,
    display: row.display,
    value: kind === 'contentManager' ? contentManagerConfigView(row.value) : row.value,
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
