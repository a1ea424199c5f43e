import { ActionIcon, Button, Center, Group, Loader, Stack, Tabs, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { deleteOrganization, renameOrganization, useOrganization } from '../../../api/organizations';
import { useExhibitsBySites } from '../../../api/devices';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { lockedExhibitsFromError } from '../../../components/dialogs/LockedExhibitDialog';
import { ItemEditDialogs } from '../../../components/dialogs/ItemEditDialogs';
import { OrganizationSettingsTab } from './OrganizationSettingsTab';
import { OrganizationSitesTab } from './OrganizationSitesTab';
import { OrganizationUsersTab } from './OrganizationUsersTab';

const ORG_TABS = ['sites', 'users', 'settings'] as const;
type OrgTab = (typeof ORG_TABS)[number];

function isOrgTab(value: string | undefined): value is OrgTab {
  return (ORG_TABS as readonly string[]).includes(value ?? '');
}

/**
 * The organization screen (/organization/:orgId/:orgTab): tabs Sites, Users and Settings (when the
 * organization has settings), and for admins rename and delete. A load failure goes home.
 */
export function OrganizationPage() {
  const { orgId = '', orgTab } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const organization = useOrganization(orgId);
  const org = organization.data;
  const [dialog, setDialog] = useState<'rename' | 'delete' | 'locked' | null>(null);
  const [lockedFromServer, setLockedFromServer] = useState<{ id: string; name: string }[] | null>(null);

  const siteIds = org?.isAdmin ? org.sites.map((s) => s.id) : [];
  const exhibits = useExhibitsBySites(siteIds);
  const lockedKnown = (exhibits.data?.exhibits ?? []).filter((e) => e.manifestLocked).map((e) => ({ id: e.id, name: e.name }));

  useEffect(() => {
    if (organization.isError) {
      console.error('Organization load failed', organization.error);
      navigate(paths.home(), { replace: true });
    }
  }, [organization.isError, organization.error, navigate]);

  if (orgTab === undefined) return <Navigate to={paths.organization(orgId, 'sites')} replace />;
  if (!isOrgTab(orgTab)) return <Navigate to={paths.home()} replace />;
  if (!org) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading organization" />
      </Center>
    );
  }
  const hasSettings = org.organizationsettings.length > 0;
  if (orgTab === 'settings' && !hasSettings) return <Navigate to={paths.home()} replace />;

  const handleRename = async (name: string) => {
    try {
      await renameOrganization(org.id, name);
    } catch (e) {
      console.error('Organization rename failed', e);
      return;
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.organization(org.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.organizations }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites }),
      queryClient.invalidateQueries({ queryKey: queryKeys.exhibits }),
      queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists }),
    ]);
  };

  const handleDeleteClick = () => {
    setLockedFromServer(null);
    setDialog(lockedKnown.length > 0 ? 'locked' : 'delete');
  };

  const handleDelete = async () => {
    try {
      await deleteOrganization(org.id);
    } catch (e) {
      const locked = lockedExhibitsFromError(e);
      if (!locked) throw e;
      setLockedFromServer(locked);
      setDialog('locked');
      return;
    }
    setDialog(null);
    queryClient.removeQueries({ queryKey: queryKeys.organization(org.id) });
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.organizations }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites }),
      queryClient.invalidateQueries({ queryKey: queryKeys.exhibits }),
      queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists }),
    ]);
    navigate(paths.home());
  };

  return (
    <Stack gap="md">
      <Group>
        <Button component={Link} to={paths.home()} variant="subtle" leftSection={<IconArrowLeft size={16} />}>
          Home
        </Button>
      </Group>
      <Group gap="xs">
        <Title order={2}>{org.name}</Title>
        {org.isAdmin && (
          <>
            <Tooltip label="Edit organization name">
              <ActionIcon variant="subtle" aria-label="Edit organization name" onClick={() => setDialog('rename')}>
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete organization">
              <ActionIcon variant="subtle" color="red" aria-label="Delete organization" onClick={handleDeleteClick}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </>
        )}
      </Group>
      <Tabs value={orgTab} onChange={(tab) => tab && navigate(paths.organization(org.id, tab as OrgTab))} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="sites">Sites</Tabs.Tab>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          {hasSettings && <Tabs.Tab value="settings">Settings</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="sites" pt="md">
          <OrganizationSitesTab organization={org} />
        </Tabs.Panel>
        <Tabs.Panel value="users" pt="md">
          <OrganizationUsersTab organization={org} />
        </Tabs.Panel>
        {hasSettings && (
          <Tabs.Panel value="settings" pt="md">
            <OrganizationSettingsTab organization={org} />
          </Tabs.Panel>
        )}
      </Tabs>
      <ItemEditDialogs
        itemType="organization"
        itemName={org.name}
        open={dialog}
        onClose={(which) => setDialog((d) => (d === which ? null : d))}
        onRename={handleRename}
        onDelete={handleDelete}
        lockedExhibits={lockedFromServer ?? lockedKnown}
      />
    </Stack>
  );
}
