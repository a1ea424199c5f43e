import type { Setting } from '@plinth/shared';
import { SettingsForm } from '../../../components/SettingsForm';
import { usePublicConfig } from '../../../lib/api/get-public-config';
import { useSaveSettings } from '../../../lib/api/save-settings';

/**
 * The site's settings. Settings inherited from the organization are read-only here; Save sends
 * only the site's own settings (those carrying SiteId).
 */
export function SiteSettingsTab({
  siteId,
  settings,
  canEdit,
  onDirtyChange,
}: {
  siteId: string;
  settings: Setting[];
  canEdit: boolean;
  /** Told whether there are unsaved edits (the site screen asks before leaving then). */
  onDirtyChange: (dirty: boolean) => void;
}) {
  const save = useSaveSettings({ scope: 'site', id: siteId });
  const config = usePublicConfig();
  return (
    <SettingsForm
      settings={settings}
      canEdit={canEdit}
      isInherited={(s) => s.OrganizationId !== null || s.SiteId === null}
      save={save}
      reportUrlPrefix={config.data?.reportUrlPrefix}
      onDirtyChange={onDirtyChange}
    />
  );
}
