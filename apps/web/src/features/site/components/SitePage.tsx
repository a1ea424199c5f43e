import { ActionIcon, Anchor, Box, Button, Center, Flex, Group, Loader, Paper, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCpu, IconDeviceDesktop, IconPencil, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { BREAKPOINT_MEDIUM_PX, BREAKPOINT_NARROW_PX, can, parseRole, SETTING_IDS } from '@plinth/shared';
import { createExhibit, createHardware, updateExhibit, useExhibitsBySites, useHardwareBySite } from '../../../api/devices';
import { deleteSite, renameSite, useOrganization, useOrganizationSites, useSite, useSiteSettings } from '../../../api/organizations';
import { addSiteUser, useSitePermissions } from '../../../api/permissions';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { CreateExhibitDialog } from '../../../components/CreateExhibitDialog';
import { lockedExhibitsFromError } from '../../../components/dialogs/LockedExhibitDialog';
import { ItemEditDialogs } from '../../../components/dialogs/ItemEditDialogs';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { LeftNav } from '../../../components/LeftNav';
import { UsersListAddDialog } from '../../../components/UsersListAddDialog';
import { ApiError } from '../../../lib/api-client';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { creationError } from '../lib/creation-error';
import { SiteExhibitsTab } from './SiteExhibitsTab';
import { SiteHardwareTab } from './SiteHardwareTab';
import { SiteReportsTab } from './SiteReportsTab';
import { SiteSettingsTab } from './SiteSettingsTab';
import { SiteUsersTab } from './SiteUsersTab';

const SITE_TABS = ['exhibits', 'hardware', 'users', 'reports', 'settings'] as const;
type SiteTab = (typeof SITE_TABS)[number];

function isSiteTab(value: string | undefined): value is SiteTab {
  return (SITE_TABS as readonly string[]).includes(value ?? '');
}

type Dialog = 'rename' | 'delete' | 'locked' | 'createExhibit' | 'createHardware' | 'addUsers' | null;

/** A header action: a labelled button, or an icon button with an aria-label on narrow layouts. */
function HeaderAction({ label, icon, compact, onClick }: { label: string; icon: ReactNode; compact: boolean; onClick: () => void }) {
  if (compact) {
    return (
      <Tooltip label={label}>
        <ActionIcon size="lg" aria-label={label} onClick={onClick}>
          {icon}
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Button leftSection={icon} onClick={onClick}>
      {label}
    </Button>
  );
}

/**
 * The site screen (/organization/:orgId/site/:siteId/:siteTab): the organization's sites on the
 * left, tabs Exhibits, Hardware, Users, Reports (when a report URL is set) and Settings (when the
 * site has settings), and the create, rename and delete actions the caller's role allows. While
 * shown, the socket is subscribed to the site's exhibits and hardware.
 */
export function SitePage() {
  const { orgId = '', siteId = '', siteTab } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const medium = useMediaQuery(`(max-width: ${BREAKPOINT_MEDIUM_PX}px)`) ?? false;

  const site = useSite(siteId);
  const organization = useOrganization(orgId);
  const orgSites = useOrganizationSites(orgId);
  const siteSettings = useSiteSettings(site.isSuccess ? siteId : undefined);
  const exhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const hardware = useHardwareBySite(siteId);
  const role = parseRole(site.data?.role);
  const canManageUsers = can(role, 'manageUsers');
  const permissions = useSitePermissions(siteId, siteTab === 'users');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [lockedFromServer, setLockedFromServer] = useState<{ id: string; name: string }[] | null>(null);

  const exhibitList = exhibits.data?.exhibits ?? [];
  const hardwareList = hardware.data?.hardware ?? [];
  useRealtimeSubscription(
    exhibitList.map((e) => e.id),
    hardwareList.map((h) => h.id),
  );

  // Set once this site is deleted: its queries then fail with 404 while the page is leaving, and
  // that must not send the user home instead of to the organization's sites tab.
  const deleted = useRef(false);
  const siteStatus = site.error instanceof ApiError ? site.error.status : null;
  useEffect(() => {
    if (deleted.current) return;
    if (site.isError && siteStatus !== 403) {
      console.error('Site load failed', site.error);
      navigate(paths.home(), { replace: true });
    }
  }, [site.isError, site.error, siteStatus, navigate]);
  useEffect(() => {
    if (deleted.current) return;
    if ((exhibits.isError || hardware.isError) && siteStatus !== 403) {
      console.error('Device list load failed', exhibits.error ?? hardware.error);
      navigate(paths.home(), { replace: true });
    }
  }, [exhibits.isError, exhibits.error, hardware.isError, hardware.error, siteStatus, navigate]);

  if (siteTab === undefined) return <Navigate to={paths.site(orgId, siteId, 'exhibits')} replace />;
  if (!isSiteTab(siteTab)) return <Navigate to={paths.home()} replace />;
  if (siteStatus === 403) {
    return (
      <Center p="xl">
        <Text>You do not have access to this site.</Text>
      </Center>
    );
  }
  if (!site.data) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading site" />
      </Center>
    );
  }

  const current = site.data;
  const settings = siteSettings.data?.siteSettings ?? current.sitesettings;
  const reportUrl = settings.find((s) => s.idString === SETTING_IDS.reportUrl)?.value.trim() ?? '';
  const hasReports = reportUrl.length > 0;
  const hasSettings = settings.length > 0;
  if ((siteTab === 'reports' && !hasReports) || (siteTab === 'settings' && !hasSettings)) {
    if (siteSettings.isPending) {
      return (
        <Center p="xl">
          <Loader aria-label="Loading site" />
        </Center>
      );
    }
    return <Navigate to={paths.home()} replace />;
  }

  const orgReadable = organization.isSuccess;
  const orgName = organization.data?.name ?? current.organizationName;
  const canManageDevices = can(role, 'manageDevices');
  const lockedKnown = exhibitList.filter((e) => e.manifestLocked).map((e) => ({ id: e.id, name: e.name }));
  const sites = orgSites.data?.sites ?? [current];

  const handleBack = () => navigate(orgReadable ? paths.organization(orgId, 'sites') : paths.home());

  const refreshSites = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.site(siteId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.organizationSites(orgId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.organization(orgId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites }),
    ]);

  const handleRename = async (name: string) => {
    try {
      await renameSite(siteId, name);
    } catch (e) {
      console.error('Site rename failed', e);
      return;
    }
    await Promise.all([
      refreshSites(),
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
      await deleteSite(siteId);
    } catch (e) {
      const locked = lockedExhibitsFromError(e);
      if (!locked) throw e;
      setLockedFromServer(locked);
      setDialog('locked');
      return;
    }
    deleted.current = true;
    setDialog(null);
    navigate(paths.organization(orgId, 'sites'));
    queryClient.removeQueries({ queryKey: queryKeys.site(siteId) });
    void refreshSites();
    void queryClient.invalidateQueries({ queryKey: queryKeys.exhibits });
    void queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
  };

  const handleCreateExhibit = async (name: string, mqttPath: string) => {
    let id: string;
    try {
      id = (await createExhibit(name, siteId)).id;
    } catch (e) {
      throw creationError(e, 'Exhibit');
    }
    if (mqttPath) {
      try {
        await updateExhibit(id, { mqttPath });
      } catch (e) {
        console.error('Setting the MQTT address failed', e);
      }
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.exhibits });
    navigate(paths.exhibit(orgId, siteId, id, 'overview'));
  };

  const handleCreateHardware = async (name: string) => {
    let id: string;
    try {
      id = (await createHardware(name, siteId)).id;
    } catch (e) {
      throw creationError(e, 'Hardware');
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareBySite(siteId) });
    navigate(paths.hardware(orgId, siteId, id, 'auth'));
  };

  const handleAddUser = async (email: string, userRole: Parameters<typeof addSiteUser>[2]) => {
    await addSiteUser(siteId, email, userRole);
    await queryClient.invalidateQueries({ queryKey: queryKeys.sitePermissions(siteId) });
  };

  const mayAddUsers = permissions.data?.canManage ?? canManageUsers;
  const action =
    siteTab === 'exhibits' && canManageDevices ? (
      <HeaderAction label="Create Exhibit" icon={<IconDeviceDesktop size={18} />} compact={medium} onClick={() => setDialog('createExhibit')} />
    ) : siteTab === 'hardware' && canManageDevices ? (
      <HeaderAction label="Create Hardware" icon={<IconCpu size={18} />} compact={medium} onClick={() => setDialog('createHardware')} />
    ) : siteTab === 'users' && mayAddUsers ? (
      <HeaderAction label="Add Users" icon={<IconUserPlus size={18} />} compact={medium} onClick={() => setDialog('addUsers')} />
    ) : null;

  const nav = (
    <LeftNav
      title={orgName}
      onBack={handleBack}
      backLabel={orgReadable ? 'Back to organization' : 'Back to home'}
      items={sites.map((s) => ({ id: s.id, label: s.name, to: paths.site(orgId, s.id, 'exhibits') }))}
      activeId={siteId}
    />
  );

  return (
    <Flex gap="md" direction={narrow ? 'column' : 'row'} align="flex-start">
      <Paper withBorder p="sm" w={narrow ? '100%' : 240} style={{ flexShrink: 0 }}>
        {nav}
      </Paper>
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }} w="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-end">
          <Box style={{ minWidth: 0 }}>
            {orgReadable ? (
              <Anchor component={Link} to={paths.organization(orgId, 'sites')} size="sm">
                {orgName}
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed">
                {orgName}
              </Text>
            )}
            <Group gap="xs" wrap="nowrap">
              <Title order={2} style={{ overflowWrap: 'anywhere' }}>
                {current.name}
              </Title>
              {current.canCreate && (
                <>
                  <Tooltip label="Edit site name">
                    <ActionIcon variant="subtle" aria-label="Edit site name" onClick={() => setDialog('rename')}>
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete site">
                    <ActionIcon variant="subtle" color="red" aria-label="Delete site" onClick={handleDeleteClick}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
            </Group>
          </Box>
          {action}
        </Group>
        <Tabs value={siteTab} onChange={(tab) => tab && navigate(paths.site(orgId, siteId, tab as SiteTab))} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="exhibits">Exhibits</Tabs.Tab>
            <Tabs.Tab value="hardware">Hardware</Tabs.Tab>
            <Tabs.Tab value="users">Users</Tabs.Tab>
            {hasReports && <Tabs.Tab value="reports">Reports</Tabs.Tab>}
            {hasSettings && <Tabs.Tab value="settings">Settings</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="exhibits" pt="md">
            <SiteExhibitsTab exhibits={exhibitList} isLoading={exhibits.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="hardware" pt="md">
            <SiteHardwareTab hardware={hardwareList} isLoading={hardware.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="users" pt="md">
            <SiteUsersTab siteId={siteId} canManage={canManageUsers} />
          </Tabs.Panel>
          {hasReports && (
            <Tabs.Panel value="reports" pt="md">
              <SiteReportsTab reportUrl={reportUrl} />
            </Tabs.Panel>
          )}
          {hasSettings && (
            <Tabs.Panel value="settings" pt="md">
              <SiteSettingsTab siteId={siteId} settings={settings} canEdit={can(role, 'editSettings')} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Stack>
      <ItemEditDialogs
        itemType="site"
        itemName={current.name}
        open={dialog}
        onClose={(which) => setDialog((d) => (d === which ? null : d))}
        onRename={handleRename}
        onDelete={handleDelete}
        lockedExhibits={lockedFromServer ?? lockedKnown}
      />
      <CreateExhibitDialog opened={dialog === 'createExhibit'} onClose={() => setDialog(null)} onSubmit={handleCreateExhibit} />
      <NameDialog
        opened={dialog === 'createHardware'}
        onClose={() => setDialog(null)}
        title="Create Hardware"
        label="Name"
        confirmLabel="Create"
        onSubmit={handleCreateHardware}
        errorFallback="Error: Could not create Hardware"
      />
      <UsersListAddDialog opened={dialog === 'addUsers'} onClose={() => setDialog(null)} scope="site" onSubmit={handleAddUser} />
    </Flex>
  );
}
