import { ActionIcon, Button, Tabs, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCpu, IconDeviceDesktop, IconUserPlus } from '@tabler/icons-react';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { BREAKPOINT_MEDIUM_PX, can, parseRole, SETTING_IDS, type Exhibit, type Hardware } from '@plinth/shared';
import { CreateExhibitDialog } from '../../../components/CreateExhibitDialog';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { UnsavedChangesDialog } from '../../../components/dialogs/UnsavedChangesDialog';
import { ItemPageHeader } from '../../../components/ItemPageHeader';
import { LeftNav } from '../../../components/LeftNav';
import { PageState } from '../../../components/PageState';
import { SideNavLayout } from '../../../components/SideNavLayout';
import { UsersListAddDialog } from '../../../components/UsersListAddDialog';
import { errorStatus } from '../../../lib/api-client';
import { useCreatePermission } from '../../../lib/api/create-permission';
import { useOrganization } from '../../../lib/api/get-organization';
import { useSite } from '../../../lib/api/get-site';
import { useExhibitsBySites } from '../../../lib/api/list-exhibits-by-sites';
import { useHardwareBySite } from '../../../lib/api/list-hardware-by-site';
import { useOrganizationSites } from '../../../lib/api/list-organization-sites';
import { usePermissions } from '../../../lib/api/list-permissions';
import { paths } from '../../../lib/paths';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useSameIds } from '../../../lib/useKeptOrder';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useLoadFailureRedirect } from '../../../lib/use-load-failure-redirect';
import { useParentCrumbs } from '../../../lib/use-parent-crumbs';
import { useCreateExhibit } from '../api/create-exhibit';
import { useCreateHardware } from '../api/create-hardware';
import { useDeleteSite } from '../api/delete-site';
import { useSiteSettings } from '../api/get-site-settings';
import { useUpdateSite } from '../api/update-site';
import { SiteExhibitsTab } from './SiteExhibitsTab';
import { SiteHardwareTab } from './SiteHardwareTab';
import { SiteReportsTab } from './SiteReportsTab';
import { SiteSettingsTab } from './SiteSettingsTab';
import { SiteUsersTab } from './SiteUsersTab';

/**
 * Where a failed site read leads: a site that does not exist (or is invisible: the server answers
 * the same 404) to not-found, as for exhibits; a 403 stays, the page saying the caller has no
 * access; any other failure home.
 */
function siteLoadTarget(status: number | null): string | null {
  if (status === 404) return paths.notFound();
  if (status === 403) return null;
  return paths.home();
}

const SITE_TABS = ['exhibits', 'hardware', 'users', 'reports', 'settings'] as const;
type SiteTab = (typeof SITE_TABS)[number];

function isSiteTab(value: string | undefined): value is SiteTab {
  return (SITE_TABS as readonly string[]).includes(value ?? '');
}

type Dialog = 'createExhibit' | 'createHardware' | 'addUsers' | null;
const NO_EXHIBITS: Exhibit[] = [];
const NO_HARDWARE: Hardware[] = [];

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
  const medium = useMediaQuery(`(max-width: ${BREAKPOINT_MEDIUM_PX}px)`) ?? false;

  const site = useSite(siteId);
  const organization = useOrganization(orgId);
  const orgSites = useOrganizationSites(orgId);
  const crumbs = useParentCrumbs({ orgId, organizationName: site.data?.organizationName ?? '' });
  const siteSettings = useSiteSettings(site.isSuccess ? siteId : undefined);
  const exhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const hardware = useHardwareBySite(siteId);
  const role = parseRole(site.data?.role);
  const deferredSite = useDeferredValue(site.data);
  // Another site's page stays the loading state until this one's deferred render, never the other site.
  const shownSite = deferredSite?.id === siteId ? deferredSite : undefined;
  const canManageUsers = can(role, 'manageUsers');
  const permissions = usePermissions({ scope: 'site', id: siteId }, siteTab === 'users');
  const rename = useUpdateSite();
  const remove = useDeleteSite();
  const createExhibit = useCreateExhibit();
  const createHardware = useCreateHardware();
  const addUser = useCreatePermission({ scope: 'site', id: siteId });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [settingsDirty, setSettingsDirty] = useState(false);
  const leave = useLeaveGuard(settingsDirty);

  const exhibitList = exhibits.data?.exhibits ?? NO_EXHIBITS;
  const hardwareList = hardware.data?.hardware ?? NO_HARDWARE;
  useRealtimeSubscription(useSameIds(exhibitList), useSameIds(hardwareList));

  // Once this site is deleted its reads fail with 404 while the page is leaving: that must not
  // send the user to not-found instead of to the organization's sites tab. A 403 stays on the page.
  const siteStatus = errorStatus(site.error);
  useLoadFailureRedirect(site, { message: 'Site load failed', redirectTo: siteLoadTarget, isLeaving: remove.isSuccess });
  useLoadFailureRedirect(
    { isError: exhibits.isError || hardware.isError, error: exhibits.error ?? hardware.error },
    // The lists can fail before the site's own read answers (a site that does not exist): their status then decides.
    { message: 'Device list load failed', redirectTo: (status) => siteLoadTarget(siteStatus ?? status), isLeaving: remove.isSuccess },
  );

  if (siteTab === undefined) return <Navigate to={paths.site(orgId, siteId, 'exhibits')} replace />;
  if (!isSiteTab(siteTab)) return <Navigate to={paths.home()} replace />;
  if (siteStatus === 403) return <PageState itemType="site" kind="forbidden" />;
  // The page's first full render (its tabs, lists and navigation) waits for the site, and is done
  // as a deferred render that React slices, not as one long task the moment the site arrives.
  if (!shownSite) return <PageState itemType="site" kind="loading" />;

  const current = shownSite;
  const settings = siteSettings.data?.siteSettings ?? current.sitesettings;
  const reportUrl = settings.find((s) => s.idString === SETTING_IDS.reportUrl)?.value.trim() ?? '';
  const hasReports = reportUrl.length > 0;
  const hasSettings = settings.length > 0;
  if ((siteTab === 'reports' && !hasReports) || (siteTab === 'settings' && !hasSettings)) {
    if (siteSettings.isPending) return <PageState itemType="site" kind="loading" />;
    return <Navigate to={paths.home()} replace />;
  }

  const orgReadable = organization.isSuccess;
  const orgName = organization.data?.name ?? current.organizationName;
  const canManageDevices = can(role, 'manageDevices');
  const lockedKnown = exhibitList.filter((e) => e.manifestLocked).map((e) => ({ id: e.id, name: e.name }));
  const sites = orgSites.data?.sites ?? [current];

  const handleBack = () => leave.guard(() => navigate(orgReadable ? paths.organization(orgId, 'sites') : paths.home()));

  // A failed rename is logged only (spec section 8): the dialog closes and shows nothing.
  const handleRename = (name: string) =>
    rename.mutateAsync({ siteId, organizationId: orgId, name }).catch((e: unknown) => console.error('Site rename failed', e));

  const handleDelete = () => remove.mutateAsync({ siteId, organizationId: orgId }).then(() => navigate(paths.organization(orgId, 'sites')));

  const handleCreateExhibit = async (name: string, mqttPath: string) => {
    const exhibit = await createExhibit.mutateAsync({ siteId, name, mqttPath });
    navigate(paths.exhibit(orgId, siteId, exhibit.id, 'overview'));
  };

  const handleCreateHardware = async (name: string) => {
    const created = await createHardware.mutateAsync({ siteId, name });
    navigate(paths.hardware(orgId, siteId, created.id, 'auth'));
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
    <>
      <SideNavLayout navLabel="Organization navigation" navWidth={240} nav={nav}>
        <ItemPageHeader
          itemType="site"
          name={current.name}
          crumbs={crumbs}
          actions={action}
          canEdit={current.canCreate}
          onRename={handleRename}
          renameMutation={{ isPending: rename.isPending, error: null }}
          onDelete={handleDelete}
          deleteMutation={remove}
          lockedExhibits={lockedKnown}
        />
        <Tabs value={siteTab} onChange={(tab) => tab && leave.guard(() => navigate(paths.site(orgId, siteId, tab as SiteTab)))} keepMounted={false}>
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
            <SiteUsersTab siteId={siteId} />
          </Tabs.Panel>
          {hasReports && (
            <Tabs.Panel value="reports" pt="md">
              <SiteReportsTab reportUrl={reportUrl} />
            </Tabs.Panel>
          )}
          {hasSettings && (
            <Tabs.Panel value="settings" pt="md">
              <SiteSettingsTab siteId={siteId} settings={settings} canEdit={can(role, 'editSettings')} onDirtyChange={setSettingsDirty} />
            </Tabs.Panel>
          )}
        </Tabs>
      </SideNavLayout>
      <CreateExhibitDialog
        opened={dialog === 'createExhibit'}
        onClose={() => setDialog(null)}
        onSubmit={handleCreateExhibit}
        mutation={createExhibit}
      />
      <NameDialog
        opened={dialog === 'createHardware'}
        onClose={() => setDialog(null)}
        title="Create Hardware"
        label="Name"
        confirmLabel="Create"
        onSubmit={handleCreateHardware}
        mutation={createHardware}
        errorFallback="Error: Could not create Hardware"
      />
      <UsersListAddDialog
        opened={dialog === 'addUsers'}
        onClose={() => setDialog(null)}
        scope="site"
        onSubmit={(email, userRole) => addUser.mutateAsync({ email, role: userRole })}
        mutation={addUser}
      />
      <UnsavedChangesDialog opened={leave.isPrompting} onCancel={leave.cancel} onProceed={leave.proceed} />
    </>
  );
}
