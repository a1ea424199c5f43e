import { Group, Switch, Tabs, Tooltip } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { can, parseRole, type Hardware, type Role } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { AuditLogLink } from '../../../components/AuditLogLink';
import { ItemPageHeader } from '../../../components/ItemPageHeader';
import { LeftNav, type LeftNavItem } from '../../../components/LeftNav';
import { lazyPanel } from '../../../components/lazy-panel';
import { LazyLogsView as LogsView } from '../../../components/logs/lazy-logs-view';
import { OnlineBadge } from '../../../components/OnlineBadge';
import { PageState } from '../../../components/PageState';
import { SideNavLayout } from '../../../components/SideNavLayout';
import { pickGated } from '../../../components/QueryGate';
import { errorStatus } from '../../../lib/api-client';
import { useExhibitsBySites } from '../../../lib/api/list-exhibits-by-sites';
import { useHardwareBySite } from '../../../lib/api/list-hardware-by-site';
import { useUpdateHardware } from '../../../lib/api/update-hardware';
import { paths } from '../../../lib/paths';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useKeptOrder, useSameIds } from '../../../lib/useKeptOrder';
import { useLoadFailureRedirect } from '../../../lib/use-load-failure-redirect';
import { useParentCrumbs } from '../../../lib/use-parent-crumbs';
import { useDeleteHardware } from '../api/delete-hardware';
import { useHardwareFrame } from '../api/get-hardware';
import { useHardwareLiveEvents } from '../hooks/useHardwareLiveEvents';
import { HardwareAuthTab } from './HardwareAuthTab';
import { HardwareFirmwareTab } from './HardwareFirmwareTab';
import { HardwareOverviewTab } from './HardwareOverviewTab';
import { HardwarePeripheralsTab } from './HardwarePeripheralsTab';

/** Logs and reports load when opened, with their date pickers and charts (Chart.js). */
const HardwareReportsTab = lazyPanel(() => import('./HardwareReportsTab').then((m) => m.HardwareReportsTab), 'Loading the reports');

export const HARDWARE_TABS = ['overview', 'peripherals', 'logs', 'reports', 'firmware', 'auth'] as const;
export type HardwareTab = (typeof HARDWARE_TABS)[number];

const TAB_LABELS: Record<HardwareTab, string> = {
  overview: 'Overview',
  peripherals: 'Peripherals',
  logs: 'Logs',
  reports: 'Reports',
  firmware: 'Firmware',
  auth: 'Auth',
};

/** The tabs a role sees: auth only for roles that may edit hardware (DEVELOPER and above). */
export function hardwareTabsFor(role: Role | null): HardwareTab[] {
  return HARDWARE_TABS.filter((tab) => tab !== 'auth' || can(role, 'manageDevices'));
}

/** The text of the debug-mode confirmation (spec section 4: it changes where the hardware is connected). */
export function debugConfirmMessage(turnOn: boolean): string {
  return `Turning debug mode ${turnOn ? 'on' : 'off'} changes where this hardware is connected${
    turnOn ? ': the console drives its peripherals instead of its exhibit' : ': it goes back to its exhibit'
  }. Do you want to continue?`;
}

type Dialog = 'debug' | null;

/** One empty list, so that memoized values do not change while the site's list loads. */
const NO_HARDWARE: Hardware[] = [];
const NO_IDS: string[] = [];

type NavHardware = Pick<Hardware, 'id' | 'name' | 'online' | 'controlDebug' | 'organizationId' | 'siteId'>;

/**
 * The left navigation's entries: the site's hardware by name, this one with its live state. Kept
 * while only other fields of this hardware change (a prop value at 1,000 a second must not sort
 * a site's 10,000 boards again: issue 17).
 */
function useNavItems({ siteList, current, linkTab }: { siteList: Hardware[]; current: NavHardware | undefined; linkTab: string }): LeftNavItem[] {
  const { id, name, online, controlDebug, organizationId, siteId } = current ?? {};
  const listed = useMemo((): NavEntry[] => {
    if (!id || siteList.some((h) => h.id === id)) return siteList;
    return [...siteList, { id, name: name ?? '', online: online ?? false, controlDebug: controlDebug ?? false }];
  }, [siteList, id, name, online, controlDebug]);
  // Sorted again only when a name changes: 10,000 boards heartbeating change the list many times a second.
  const sorted = useKeptOrder(listed, sortByName, nameOf);
  return useMemo(() => {
    if (!id || !organizationId || !siteId) return [];
    const me = { id, name: name ?? '', online: online ?? false, controlDebug: controlDebug ?? false };
    return sorted.map((h) => {
      const live = h.id === id ? me : h;
      return { id: h.id, label: live.name, to: paths.hardware(organizationId, siteId, h.id, linkTab), online: live.online, debug: live.controlDebug };
    });
  }, [sorted, id, name, online, controlDebug, organizationId, siteId, linkTab]);
}

type NavEntry = Pick<Hardware, 'id' | 'name' | 'online' | 'controlDebug'>;
const nameOf = (h: NavEntry) => h.name;
const sortByName = (list: NavEntry[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));

/**
 * The hardware detail screen (/organization/:orgId/site/:siteId/hardware/:hardwareId/:hardwareTab,
 * spec 2.13): the site's hardware on the left with online and debug state, the debug-mode toggle,
 * edit and delete, and the tabs. A 403 shows a notice; any other load failure goes to /notfound.
 * While shown, the socket is subscribed to the hardware (and the site's other hardware for the list).
 */
export function HardwarePage() {
  const { orgId = '', siteId = '', hardwareId = '', hardwareTab } = useParams();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);

  // Without the peripherals: a prop changing 1,000 times a second redraws only its own control.
  const hardware = useHardwareFrame(hardwareId);
  const siteHardware = useHardwareBySite(siteId);
  const exhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const rename = useUpdateHardware();
  const debug = useUpdateHardware();
  const remove = useDeleteHardware();
  const siteList = siteHardware.data?.hardware ?? NO_HARDWARE;
  const crumbs = useParentCrumbs({
    orgId,
    organizationName: hardware.data?.organizationName ?? '',
    site: { id: siteId, name: hardware.data?.siteName ?? '', tab: 'hardware' },
  });
  const siteIds = useSameIds(siteList);
  const subscribedIds = useMemo(() => [...new Set([hardwareId, ...siteIds])].filter(Boolean), [hardwareId, siteIds]);
  useRealtimeSubscription(NO_IDS, subscribedIds);
  const navItems = useNavItems({ siteList, current: hardware.data, linkTab: hardwareTab === 'auth' || !hardwareTab ? 'overview' : hardwareTab });
  const backToSite = useCallback(() => navigate(paths.site(orgId, siteId, 'hardware')), [navigate, orgId, siteId]);
  useHardwareLiveEvents(hardwareId, backToSite);

  // Once this hardware is deleted its query fails with 404 while the page is leaving: that must
  // not send the user to /notfound instead of the site's hardware tab. A 403 stays on the page.
  const status = errorStatus(hardware.error);
  useLoadFailureRedirect(hardware, {
    message: 'Hardware load failed',
    redirectTo: (s) => (s === 403 ? null : paths.notFound()),
    isLeaving: remove.isSuccess,
  });
  useEffect(() => {
    if (siteHardware.isError) console.error('Could not load the site hardware', siteHardware.error);
  }, [siteHardware.isError, siteHardware.error]);

  if (hardwareTab === undefined) return <Navigate to={paths.hardware(orgId, siteId, hardwareId, 'overview')} replace />;
  if (status === 403) return <PageState itemType="hardware" kind="forbidden" />;
  if (!hardware.data) return <PageState itemType="hardware" kind="loading" />;

  const current = hardware.data;
  const role = parseRole(current.role);
  const tabs = hardwareTabsFor(role);
  if (!(tabs as string[]).includes(hardwareTab)) return <Navigate to={paths.hardware(orgId, siteId, hardwareId, 'overview')} replace />;
  const tab = hardwareTab as HardwareTab;
  const canEdit = can(role, 'manageDevices');
  const canOperate = can(role, 'operate');
  const debugDisabled = !canOperate || !current.online;

  const handleDelete = () => remove.mutateAsync(hardwareId).then(backToSite);


  return (
    <>
      <SideNavLayout
        navLabel="Site navigation"
        navWidth={240}
        nav={<LeftNav title={current.siteName} onBack={backToSite} backLabel="Back to site hardware" items={navItems} activeId={current.id} />}
      >
        <ItemPageHeader
          itemType="hardware"
          name={current.name}
          crumbs={crumbs}
          badge={<OnlineBadge online={current.online} />}
          actions={
            <Group gap="md">
              <AuditLogLink organizationId={orgId} filter={{ hardwareId }} />
              <Tooltip
                label={!canOperate ? 'Your role cannot change debug mode' : 'Debug mode can be changed only while the hardware is online'}
                disabled={!debugDisabled}
              >
                <div>
                  <Switch label="Debug Mode" checked={current.controlDebug} disabled={debugDisabled} onChange={() => setDialog('debug')} />
                </div>
              </Tooltip>
            </Group>
          }
          canEdit={canEdit}
          onRename={(name) => rename.mutateAsync({ hardwareId, data: { name } })}
          renameMutation={rename}
          onDelete={handleDelete}
          deleteMutation={remove}
        />
        <Tabs value={tab} onChange={(next) => next && navigate(paths.hardware(orgId, siteId, hardwareId, next))} keepMounted={false}>
          <Tabs.List>
            {tabs.map((t) => (
              <Tabs.Tab key={t} value={t}>
                {TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="overview" pt="md">
            <HardwareOverviewTab hardware={current} exhibits={pickGated(exhibits, (d) => d.exhibits)} canEditExhibit={canEdit} />
          </Tabs.Panel>
          <Tabs.Panel value="peripherals" pt="md">
            <HardwarePeripheralsTab hardware={current} canOperate={canOperate} />
          </Tabs.Panel>
          <Tabs.Panel value="logs" pt="md">
            <LogsView source={{ kind: 'hardware', id: current.id }} />
          </Tabs.Panel>
          <Tabs.Panel value="reports" pt="md">
            <HardwareReportsTab hardwareId={current.id} />
          </Tabs.Panel>
          <Tabs.Panel value="firmware" pt="md">
            <HardwareFirmwareTab hardware={current} canOperate={canOperate} />
          </Tabs.Panel>
          {tabs.includes('auth') && (
            <Tabs.Panel value="auth" pt="md">
              <HardwareAuthTab hardware={current} canDeleteTokens={can(role, 'deleteToken')} />
            </Tabs.Panel>
          )}
        </Tabs>
      </SideNavLayout>
      <ConfirmDialog
        opened={dialog === 'debug'}
        onClose={() => setDialog(null)}
        title={current.controlDebug ? 'Turn off debug mode' : 'Turn on debug mode'}
        message={debugConfirmMessage(!current.controlDebug)}
        onConfirm={() => debug.mutateAsync({ hardwareId, data: { controlDebug: !current.controlDebug } })}
        mutation={debug}
      />
    </>
  );
}
