import { useQueryClient } from '@tanstack/react-query';
import { ContentManagerConfigSchema, SETTING_IDS, type Organization } from '@plinth/shared';
import { contentManagerLogin, saveOrganizationSetting } from '../../../api/organizations';
import { queryKeys } from '../../../api/query-keys';
import { SettingsForm } from '../../../components/SettingsForm';

/** The content manager's address from the saved config ('' when none). */
function contentManagerUrl(organization: Organization): string {
  const raw = organization.organizationsettings.find((s) => s.idString === SETTING_IDS.contentManager)?.value ?? '';
  try {
    return ContentManagerConfigSchema.parse(raw ? JSON.parse(raw) : {}).url;
  } catch {
    return '';
  }
}

/** The organization's settings; only admins (isAdmin) may edit them. */
export function OrganizationSettingsTab({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();

  const getContentUrl = async () => {
    const { token } = await contentManagerLogin(organization.id);
    const base = contentManagerUrl(organization).replace(/\/+$/, '');
    return `${base}/admin/auth/login?token=${encodeURIComponent(token)}`;
  };

  return (
    <SettingsForm
      settings={organization.organizationsettings}
      canEdit={organization.isAdmin}
      saveSetting={(setting, value) => saveOrganizationSetting(organization.id, setting.idString, value)}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.organization(organization.id) })}
      getContentUrl={getContentUrl}
    />
  );
}
