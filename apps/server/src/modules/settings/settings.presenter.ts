import { settingKind, type Setting } from '@plinth/shared';
import { contentManagerConfigView } from '../content-manager/content-manager-config.service.js';
import type { SettingRow } from './settings.repository.js';

/**
 * An organization setting (OrganizationId set, SiteId null) or a site's own (SiteId set,
 * OrganizationId null) as the console reads it. The content-manager config shows whether each
 * password is set, never the password.
 */
export function presentSetting(row: SettingRow): Setting {
  const kind = settingKind(row.idString);
  return {
    id: row.id,
    idString: row.idString,
    display: row.display,
    value: kind === 'contentManager' ? contentManagerConfigView(row.value) : row.value,
    kind,
    OrganizationId: row.organizationId,
    SiteId: row.siteId,
  };
}
