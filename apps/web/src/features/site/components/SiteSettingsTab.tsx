import { useQueryClient } from '@tanstack/react-query';
import type { Setting } from '@plinth/shared';
import { saveSiteSetting } from '../../../api/organizations';
import { queryKeys } from '../../../api/query-keys';
import { SettingsForm } from '../../../components/SettingsForm';

/**
 * The site's settings. Settings inherited from the organization are read-only here; Save sends
 * only the site's own settings (those carrying SiteId).
 */
export function SiteSettingsTab({ siteId, settings, canEdit }: { siteId: string; settings: Setting[]; canEdit: boolean }) {
  const queryClient = useQueryClient();
  return (
    <SettingsForm
      settings={settings}
      canEdit={canEdit}
      isInherited={(s) => s.OrganizationId !== null || s.SiteId === null}
      saveSetting={(setting, value) => saveSiteSetting(siteId, setting.idString, value)}
      onSaved={() => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.siteSettings(siteId) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.site(siteId) });
      }}
    />
  );
}
