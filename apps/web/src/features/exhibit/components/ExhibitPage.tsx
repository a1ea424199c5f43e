import { ActionIcon, Badge, Group, Switch, Tabs, Text, Tooltip } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { can, type OpMode } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { UnsavedChangesDialog } from '../../../components/dialogs/UnsavedChangesDialog';
import { AuditLogLink } from '../../../components/AuditLogLink';
import { ItemPageHeader } from '../../../components/ItemPageHeader';
import { LeftNav } from '../../../components/LeftNav';
import { lazyPanel } from '../../../components/lazy-panel';
import { LazyLogsView as LogsView } from '../../../components/logs/lazy-logs-view';
import { OnlineBadge } from '../../../components/OnlineBadge';
import { PageState } from '../../../components/PageState';
import { SideNavLayout } from '../../../components/SideNavLayout';
import { useSite } from '../../../lib/api/get-site';
import { useExhibitsBySites } from '../../../lib/api/list-exhibits-by-sites';
import { useUpdateExhibit } from '../../../lib/api/update-exhibit';
import { paths } from '../../../lib/paths';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useSameIds } from '../../../lib/useKeptOrder';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useLoadFailureRedirect } from '../../../lib/use-load-failure-redirect';
import { useParentCrumbs } from '../../../lib/use-parent-crumbs';
import { useDeleteExhibit } from '../api/delete-exhibit';
import { useExhibit } from '../api/get-exhibit';
import { useSetOpMode } from '../api/set-op-mode';
import { useExhibitLiveManifest } from '../hooks/useExhibitLiveManifest';
import { useExhibitLiveSchedules } from '../hooks/useExhibitLiveSchedules';
import { useExhibitLiveUsers } from '../hooks/useExhibitLiveUsers';
import { EXHIBIT_TAB_LABELS, resolveExhibitTab, visibleExhibitTabs, type ExhibitTab } from '../lib/exhibit-tabs';
import { groupSiteExhibits } from '../lib/group-site-exhibits';
import { ExhibitAuthTab } from './ExhibitAuthTab';
import { ExhibitControlsTab } from './ExhibitControlsTab';
import { ExhibitHardwareTab } from './ExhibitHardwareTab';
import { ExhibitOverviewTab } from './ExhibitOverviewTab';
import { ExhibitFilesTab } from './files/ExhibitFilesTab';
import { ExhibitNotificationsTab } from './notifications/ExhibitNotificationsTab';
import { ExhibitUsersTab } from './users/ExhibitUsersTab';

/**
 * The tabs with heavy libraries load when opened: the calendar (FullCalendar, luxon), the rich-text
 * editor (Tiptap) of the settings, the charts (Chart.js) and the date pickers of logs and reports.
 */
const ExhibitSchedulingTab = lazyPanel(() => import('./scheduling/ExhibitSchedulingTab').then((m) => m.ExhibitSchedulingTab), 'Loading the calendar');
const ExhibitSettingsTab = lazyPanel(() => import('./ExhibitSettingsTab').then((m) => m.ExhibitSettingsTab), 'Loading the settings');
const ExhibitReportsTab = lazyPanel(() => import('./ExhibitReportsTab').then((m) => m.ExhibitReportsTab), 'Loading the reports');

type Dialog = 'opMode' | 'lock' | null;

/**
 * Why the op-mode switch is disabled offline: an offline exhibit reads Off (spec), so the switch
 * could not show a mode chosen now; the exhibit gets its mode when it is online.
 */
export const OFFLINE_OP_MODE_TEXT = 'The exhibit is offline: the operating mode can be changed when it is online.';

/**
 * The exhibit screen (spec 2.1): /organization/:orgId/site/:siteId/exhibits/:exhibitId/:exhibitTab.
 * A new exhibit id remounts the screen, so the exhibit, the caller's role and every tab reload.
 */
export function ExhibitPage() {
  const { exhibitId = '' } = useParams();
  return <ExhibitScreen key={exhibitId} />;
}

function ExhibitScreen() {
  const { orgId = '', siteId = '', exhibitId = '', exhibitTab } = useParams();
  const navigate = useNavigate();

  const exhibit = useExhibit(exhibitId);
  const site = useSite(siteId);
  const crumbs = useParentCrumbs({
    orgId,
    organizationName: exhibit.data?.organizationName ?? '',
    site: { id: siteId, name: exhibit.data?.siteName ?? '', tab: 'exhibits' },
  });
  const siteExhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const siteList = useMemo(() => siteExhibits.data?.exhibits ?? [], [siteExhibits.data]);
  const siteIds = useSameIds(siteList);
  useRealtimeSubscription(useMemo(() => [exhibitId, ...siteIds], [exhibitId, siteIds]));
  useExhibitLiveManifest(exhibitId);
  useExhibitLiveSchedules(exhibitId);
  useExhibitLiveUsers(exhibitId);
  const rename = useUpdateExhibit();
  const lock = useUpdateExhibit();
  const opMode = useSetOpMode();
  const remove = useDeleteExhibit();

  const [dialog, setDialog] = useState<Dialog>(null);
  const [settingsDirty, setSettingsDirty] = useState(false);
  const leave = useLeaveGuard(settingsDirty);

  // Once this exhibit is deleted its query fails with 404 while the page is leaving: that must not
  // send the user to /notfound instead of the site's exhibits tab.
  useLoadFailureRedirect(exhibit, {
    message: 'Exhibit load failed',
    redirectTo: (status) => (status === 403 ? paths.forbidden() : paths.notFound()),
    isLeaving: remove.isSuccess,
  });

  if (!exhibit.data) return <PageState itemType="exhibit" kind="loading" />;

  const current = exhibit.data;
  const role = current.role;
  const tab = resolveExhibitTab(exhibitTab, role);
  if (exhibitTab !== tab) return <Navigate to={paths.exhibit(orgId, siteId, exhibitId, tab)} replace />;

  const canManage = can(role, 'manageDevices');
  const canOperate = can(role, 'operate');
  const isOn = current.opMode === 'On';
  const nextMode: OpMode = isOn ? 'Off' : 'On';
  const siteName = site.data?.name ?? current.siteName;
  const siteExhibitsPath = paths.site(orgId, siteId, 'exhibits');
  const { groups, items } = groupSiteExhibits(siteList.length ? siteList : [current], (e) => paths.exhibit(orgId, siteId, e.id, tab));

  const handleDelete = () => remove.mutateAsync(exhibitId).then(() => navigate(siteExhibitsPath));

  const handleTabChange = (value: string | null) => {
    if (!value || value === tab) return;
    leave.guard(() => navigate(paths.exhibit(orgId, siteId, exhibitId, value)));
  };

  const tabBody = (t: ExhibitTab) => {
    switch (t) {
      case 'overview':
        return <ExhibitOverviewTab exhibit={current} />;
      case 'controls':
        return <ExhibitControlsTab exhibit={current} />;
      case 'settings':
        return <ExhibitSettingsTab exhibit={current} onDirtyChange={setSettingsDirty} />;
      case 'hardware':
        return <ExhibitHardwareTab exhibit={current} />;
      case 'files':
        return <ExhibitFilesTab exhibit={current} />;
      case 'logs':
        return <LogsView source={{ kind: 'exhibit', id: current.id }} />;
      case 'reports':
        return <ExhibitReportsTab exhibit={current} />;
      case 'scheduling':
        return <ExhibitSchedulingTab exhibit={current} />;
      case 'users':
        return <ExhibitUsersTab exhibit={current} />;
      case 'notifications':
        return <ExhibitNotificationsTab exhibit={current} />;
      case 'auth':
        return <ExhibitAuthTab exhibit={current} />;
    }
  };

  const opModeSwitch = (
    <Switch
      label="Op Mode"
      checked={isOn}
      disabled={!canOperate || !current.online}
      onChange={() => setDialog('opMode')}
      aria-label="Operating mode"
    />
  );

  return (
    <>
      <SideNavLayout
        navLabel="Site navigation"
        navWidth={260}
        nav={
          <LeftNav
            title={siteName}
            onBack={() => leave.guard(() => navigate(siteExhibitsPath))}
            backLabel="Back to the site's exhibits"
            groups={groups}
            items={items}
            activeId={exhibitId}
          />
        }
      >
        <ItemPageHeader
          itemType="exhibit"
          name={current.name}
          crumbs={crumbs}
          subtitle={
            current.leader && (
              <Text size="sm" c="dimmed">
                Follows {current.leader.name}
              </Text>
            )
          }
          actions={
            <Group gap="md">
              <AuditLogLink organizationId={orgId} filter={{ exhibitId }} />
              <OnlineBadge online={current.online} label={current.online ? 'Exhibit online' : 'Exhibit offline'} />
              {canOperate ? (
                <Tooltip label={current.manifestLocked ? 'Unlock the manifest' : 'Lock the manifest'}>
                  <ActionIcon
                    variant={current.manifestLocked ? 'filled' : 'subtle'}
                    aria-label={current.manifestLocked ? 'Unlock manifest' : 'Lock manifest'}
                    aria-pressed={current.manifestLocked}
                    onClick={() => setDialog('lock')}
                  >
                    {current.manifestLocked ? <IconLock size={18} /> : <IconLockOpen size={18} />}
                  </ActionIcon>
                </Tooltip>
              ) : (
                current.manifestLocked && (
                  <Badge leftSection={<IconLock size={12} />} variant="light">
                    Locked
                  </Badge>
                )
              )}
              {canOperate && !current.online ? (
                <Tooltip label={OFFLINE_OP_MODE_TEXT}>
                  <div>{opModeSwitch}</div>
                </Tooltip>
              ) : (
                opModeSwitch
              )}
            </Group>
          }
          canEdit={canManage}
          onRename={(name) => rename.mutateAsync({ exhibitId, data: { name } })}
          renameMutation={rename}
          onDelete={handleDelete}
          deleteMutation={remove}
          lockedExhibits={current.manifestLocked ? [{ id: current.id, name: current.name }] : []}
        />
        <Tabs value={tab} onChange={handleTabChange} keepMounted={false}>
          <Tabs.List>
            {visibleExhibitTabs(role).map((t) => (
              <Tabs.Tab key={t} value={t}>
                {EXHIBIT_TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value={tab} pt="md">
            {tabBody(tab)}
          </Tabs.Panel>
        </Tabs>
      </SideNavLayout>
      <ConfirmDialog
        opened={dialog === 'opMode'}
        onClose={() => setDialog(null)}
        title="Change operating mode"
        message={`Turn the operating mode of ${current.name} ${nextMode}? This changes the state of the exhibit.`}
        onConfirm={() => opMode.mutateAsync({ exhibitId, opMode: nextMode })}
        mutation={opMode}
      />
      <ConfirmDialog
        opened={dialog === 'lock'}
        onClose={() => setDialog(null)}
        title={current.manifestLocked ? 'Unlock manifest' : 'Lock manifest'}
        message={
          current.manifestLocked
            ? `Unlock the manifest of ${current.name}? The exhibit will be able to change the structure of its statuses, controls and settings again, and the exhibit can be deleted.`
            : `Lock the manifest of ${current.name}? While locked, the exhibit cannot change the structure of its statuses, controls and settings (values still update), and the exhibit cannot be deleted.`
        }
        onConfirm={() => lock.mutateAsync({ exhibitId, data: { manifestLocked: !current.manifestLocked } })}
        mutation={lock}
      />
      <UnsavedChangesDialog opened={leave.isPrompting} onCancel={leave.cancel} onProceed={leave.proceed} />
    </>
  );
}
