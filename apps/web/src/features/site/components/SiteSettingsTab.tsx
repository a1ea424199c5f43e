import type { Setting } from '@plinth/shared';
import { SettingsForm } from '../../../components/SettingsForm';
import { useSaveSettings } from '../../../lib/api/save-settings';

/**
 * The site's settings. Settings inherited from the organization are read-only here; Save sends
 * only the site's own settings (those carrying SiteId).
 */
export function SiteSettingsTab({ siteId, settings, canEdit }: { siteId: string; settings: Setting[]; canEdit: boolean }) {
  const save = useSaveSettings({ scope: 'site', id: siteId });
  return <SettingsForm settings={settings} canEdit={canEdit} isInherited={(s) => s.OrganizationId !== null || s.SiteId === null} save={save} />;
}
