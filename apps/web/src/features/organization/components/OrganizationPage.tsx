import { Button, Group, Stack, Tabs } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { UnsavedChangesDialog } from '../../../components/dialogs/UnsavedChangesDialog';
import { ItemPageHeader } from '../../../components/ItemPageHeader';
import { PageState } from '../../../components/PageState';
import { useOrganization } from '../../../lib/api/get-organization';
import { useExhibitsBySites } from '../../../lib/api/list-exhibits-by-sites';
import { paths } from '../../../lib/paths';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useLoadFailureRedirect } from '../../../lib/use-load-failure-redirect';
import { useDeleteOrganization } from '../api/delete-organization';
import { useUpdateOrganization } from '../api/update-organization';
import { OrganizationSettingsTab } from './OrganizationSettingsTab';
import { OrganizationSitesTab } from './OrganizationSitesTab';
import { OrganizationUsersTab } from './OrganizationUsersTab';

// Only managers open it: loaded on first use.
const OrganizationApiKeysTab = lazy(() => import('./OrganizationApiKeysTab').then((m) => ({ default: m.OrganizationApiKeysTab })));

const ORG_TABS = ['sites', 'users', 'settings', 'api-keys'] as const;
type OrgTab = (typeof ORG_TABS)[number];

function isOrgTab(value: string | undefined): value is OrgTab {
  return (ORG_TABS as readonly string[]).includes(value ?? '');
}

/**
 * Where a failed organization read leads, as for exhibits: an organization that does not exist
 * (or is invisible: the server answers the same 404) to not-found, one the caller may see but not
 * open (only a site or exhibit grant) to forbidden; any other failure home.
 */
function organizationLoadTarget(status: number | null): string {
  if (status === 404) return paths.notFound();
  if (status === 403) return paths.forbidden();
  return paths.home();
}

/**
 * The organization screen (/organization/:orgId/:orgTab): tabs Sites, Users and Settings (when the
 * organization has settings), and for admins API keys, rename and delete. A load failure goes home.
 */
export function OrganizationPage() {
  const { orgId = '', orgTab } = useParams();
  const navigate = useNavigate();
  const organization = useOrganization(orgId);
  const rename = useUpdateOrganization();
  const remove = useDeleteOrganization();
  const org = organization.data;
  const [settingsDirty, setSettingsDirty] = useState(false);
  const leave = useLeaveGuard(settingsDirty);

  const siteIds = org?.isAdmin ? org.sites.map((s) => s.id) : [];
  const exhibits = useExhibitsBySites(siteIds);
  const lockedKnown = (exhibits.data?.exhibits ?? []).filter((e) => e.manifestLocked).map((e) => ({ id: e.id, name: e.name }));

  useLoadFailureRedirect(organization, { message: 'Organization load failed', redirectTo: organizationLoadTarget, isLeaving: remove.isSuccess });

  if (orgTab === undefined) return <Navigate to={paths.organization(orgId, 'sites')} replace />;
  if (!isOrgTab(orgTab)) return <Navigate to={paths.home()} replace />;
  if (!org) return <PageState itemType="organization" kind="loading" />;
  const hasSettings = org.organizationsettings.length > 0;
  if (orgTab === 'settings' && !hasSettings) return <Navigate to={paths.home()} replace />;
  if (orgTab === 'api-keys' && !org.isAdmin) return <Navigate to={paths.forbidden()} replace />;

  // A failed rename is logged only (spec section 8): the dialog closes and shows nothing.
  const handleRename = (name: string) =>
    rename.mutateAsync({ organizationId: org.id, name }).catch((e: unknown) => console.error('Organization rename failed', e));

  const handleDelete = () => remove.mutateAsync(org.id).then(() => navigate(paths.home()));

  return (
    <Stack gap="md">
      <Group>
        <Button component={Link} to={paths.home()} variant="subtle" leftSection={<IconArrowLeft size={16} />}>
          Home
        </Button>
      </Group>
      <ItemPageHeader
        itemType="organization"
        name={org.name}
        canEdit={org.isAdmin}
        onRename={handleRename}
        renameMutation={{ isPending: rename.isPending, error: null }}
        onDelete={handleDelete}
        deleteMutation={remove}
        lockedExhibits={lockedKnown}
      />
      <Tabs value={orgTab} onChange={(tab) => tab && leave.guard(() => navigate(paths.organization(org.id, tab as OrgTab)))} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="sites">Sites</Tabs.Tab>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          {hasSettings && <Tabs.Tab value="settings">Settings</Tabs.Tab>}
          {org.isAdmin && <Tabs.Tab value="api-keys">API keys</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="sites" pt="md">
          <OrganizationSitesTab organization={org} />
        </Tabs.Panel>
        <Tabs.Panel value="users" pt="md">
          <OrganizationUsersTab organization={org} />
        </Tabs.Panel>
        {hasSettings && (
          <Tabs.Panel value="settings" pt="md">
            <OrganizationSettingsTab organization={org} onDirtyChange={setSettingsDirty} />
          </Tabs.Panel>
        )}
        {org.isAdmin && (
          <Tabs.Panel value="api-keys" pt="md">
            <Suspense fallback={<PageState kind="loading" label="Loading API keys" />}>
              <OrganizationApiKeysTab organization={org} />
            </Suspense>
          </Tabs.Panel>
        )}
      </Tabs>
      <UnsavedChangesDialog opened={leave.isPrompting} onCancel={leave.cancel} onProceed={leave.proceed} />
    </Stack>
  );
}
