import { ContentManagerConfigSchema, SETTING_IDS, type Organization } from '@plinth/shared';
import { Group, Stack } from '@mantine/core';
import { AuditLogLink } from '../../../components/AuditLogLink';
import { SettingsForm } from '../../../components/SettingsForm';
import { usePublicConfig } from '../../../lib/api/get-public-config';
import { useSaveSettings } from '../../../lib/api/save-settings';
import { useContentManagerLogin } from '../api/get-content-manager-login';

/** The content manager's address from the saved config ('' when none). */
function contentManagerUrl(organization: Organization): string {
  const raw = organization.organizationsettings.find((s) => s.idString === SETTING_IDS.contentManager)?.value ?? '';
  try {
    return ContentManagerConfigSchema.parse(raw ? JSON.parse(raw) : {}).url;
  } catch {
    return '';
  }
}

/** The organization's settings; only admins (isAdmin) may edit them, and they get the link to the audit log. */
export function OrganizationSettingsTab({
  organization,
  onDirtyChange,
}: {
  organization: Organization;
  /** Told whether there are unsaved edits (the organization screen asks before leaving then). */
  onDirtyChange: (dirty: boolean) => void;
}) {
  const save = useSaveSettings({ scope: 'organization', id: organization.id });
  const contentLogin = useContentManagerLogin();
  const config = usePublicConfig();

  const getContentUrl = async () => {
    const { token } = await contentLogin.mutateAsync(organization.id);
    const base = contentManagerUrl(organization).replace(/\/+$/, '');
    return `${base}/admin/auth/login?token=${encodeURIComponent(token)}`;
  };

  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <AuditLogLink organizationId={organization.id} />
      </Group>
      <SettingsForm
        settings={organization.organizationsettings}
        canEdit={organization.isAdmin}
        save={save}
        getContentUrl={getContentUrl}
        reportUrlPrefix={config.data?.reportUrlPrefix}
        onDirtyChange={onDirtyChange}
      />
    </Stack>
  );
}
