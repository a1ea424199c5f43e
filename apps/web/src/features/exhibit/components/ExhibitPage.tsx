import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Center,
  Flex,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLock, IconLockOpen, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { BREAKPOINT_NARROW_PX, can, type Exhibit, type OpMode } from '@plinth/shared';
import { deleteExhibit, updateExhibit, useExhibit, useExhibitsBySites } from '../../../api/devices';
import { setOpMode } from '../../../api/exhibit-runtime';
import { useOrganization, useSite } from '../../../api/organizations';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { lockedExhibitsFromError } from '../../../components/dialogs/LockedExhibitDialog';
import { ItemEditDialogs } from '../../../components/dialogs/ItemEditDialogs';
import { UnsavedChangesDialog } from '../../../components/dialogs/UnsavedChangesDialog';
import { LeftNav } from '../../../components/LeftNav';
import { ApiError } from '../../../lib/api-client';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useExhibitLiveManifest } from '../hooks/useExhibitLiveManifest';
import { useLeaveGuard } from '../hooks/useLeaveGuard';
import { groupSiteExhibits } from '../lib/group-site-exhibits';
import { EXHIBIT_TAB_LABELS, resolveExhibitTab, visibleExhibitTabs, type ExhibitTab } from '../lib/exhibit-tabs';
import { ExhibitAuthTab } from './ExhibitAuthTab';
import { ExhibitControlsTab } from './ExhibitControlsTab';
import { ExhibitHardwareTab } from './ExhibitHardwareTab';
import { ExhibitOverviewTab } from './ExhibitOverviewTab';
import { ExhibitSettingsTab } from './ExhibitSettingsTab';

type Dialog = 'rename' | 'delete' | 'locked' | 'opMode' | 'lock' | null;

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
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;

  const exhibit = useExhibit(exhibitId);
  const organization = useOrganization(orgId);
  const site = useSite(siteId);
  const siteExhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const siteList = useMemo(() => siteExhibits.data?.exhibits ?? [], [siteExhibits.data]);
  useRealtimeSubscription([exhibitId, ...siteList.map((e) => e.id)]);
  useExhibitLiveManifest(exhibitId);

  const [dialog, setDialog] = useState<Dialog>(null);
  const [settingsDirty, setSettingsDirty] = useState(false);
  const leave = useLeaveGuard(settingsDirty);

  // Set once this exhibit is deleted: its query then fails with 404 while the page is leaving, and
  // that must not send the user to /notfound instead of the site's exhibits tab.
  const deleted = useRef(false);
  useEffect(() => {
    if (!exhibit.isError || deleted.current) return;
    const status = exhibit.error instanceof ApiError ? exhibit.error.status : 0;
    console.error('Exhibit load failed', exhibit.error);
    navigate(status === 403 ? paths.forbidden() : paths.notFound(), {
      replace: true,
    });
  }, [exhibit.isError, exhibit.error, navigate]);

  if (!exhibit.data) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading exhibit" />
      </Center>
    );
  }

  const current = exhibit.data;
  const role = current.role;
  const tab = resolveExhibitTab(exhibitTab, role);
  if (exhibitTab !== tab) return <Navigate to={paths.exhibit(orgId, siteId, exhibitId, tab)} replace />;

  const canManage = can(role, 'manageDevices');
  const canOperate = can(role, 'operate');
  const isOn = current.opMode === 'On';
  const nextMode: OpMode = isOn ? 'Off' : 'On';
  const orgName = organization.data?.name ?? current.organizationName;
  const siteName = site.data?.name ?? current.siteName;
  const siteExhibitsPath = paths.site(orgId, siteId, 'exhibits');
  const { groups, items } = groupSiteExhibits(siteList.length ? siteList : [current], (e) => paths.exhibit(orgId, siteId, e.id, tab));

  const refreshLists = () => queryClient.invalidateQueries({ queryKey: queryKeys.exhibits });
  const storeExhibit = (updated: Exhibit) => {
    queryClient.setQueryData<Exhibit>(queryKeys.exhibit(exhibitId), updated);
    void refreshLists();
  };

  const handleRename = async (name: string) => storeExhibit(await updateExhibit(exhibitId, { name }));

  const handleToggleLock = async () =>
    storeExhibit(
      await updateExhibit(exhibitId, {
        manifestLocked: !current.manifestLocked,
      }),
    );

  const handleOpMode = async () => {
    await setOpMode(exhibitId, nextMode);
    queryClient.setQueryData<Exhibit>(queryKeys.exhibit(exhibitId), (data) =>
      data ? { ...data, opMode: nextMode, op_mode: nextMode === 'On' } : data,
    );
    void queryClient.invalidateQueries({
      queryKey: queryKeys.exhibitManifest(exhibitId),
    });
    void refreshLists();
  };

  const handleDeleteClick = () => setDialog(current.manifestLocked ? 'locked' : 'delete');

  const handleDelete = async () => {
    try {
      await deleteExhibit(exhibitId);
    } catch (e) {
      if (!lockedExhibitsFromError(e)) throw e;
      setDialog('locked');
      return;
    }
    deleted.current = true;
    setDialog(null);
    navigate(siteExhibitsPath);
    queryClient.removeQueries({
      queryKey: queryKeys.exhibit(exhibitId),
      exact: true,
    });
    void refreshLists();
  };

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
      case 'auth':
        return <ExhibitAuthTab exhibit={current} />;
      default:
        return <Text c="dimmed">This tab is not available yet.</Text>;
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
    <Flex gap="md" direction={narrow ? 'column' : 'row'} align="flex-start">
      <Paper withBorder p="sm" w={narrow ? '100%' : 260} style={{ flexShrink: 0 }}>
        <LeftNav
          title={siteName}
          onBack={() => leave.guard(() => navigate(siteExhibitsPath))}
          backLabel="Back to the site's exhibits"
          groups={groups}
          items={items}
          activeId={exhibitId}
        />
      </Paper>
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }} w="100%">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Box style={{ minWidth: 0 }}>
            <Box component="nav" aria-label="Breadcrumb">
              <Breadcrumbs separator="/">
                {organization.isSuccess ? (
                  <Anchor component={Link} to={paths.organization(orgId, 'sites')} size="sm">
                    {orgName}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    {orgName}
                  </Text>
                )}
                {site.isSuccess ? (
                  <Anchor component={Link} to={siteExhibitsPath} size="sm">
                    {siteName}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    {siteName}
                  </Text>
                )}
              </Breadcrumbs>
            </Box>
            <Group gap="xs" wrap="nowrap">
              <Title order={2} style={{ overflowWrap: 'anywhere' }}>
                {current.name}
              </Title>
              {canManage && (
                <>
                  <Tooltip label="Edit exhibit name">
                    <ActionIcon variant="subtle" aria-label="Edit exhibit name" onClick={() => setDialog('rename')}>
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete exhibit">
                    <ActionIcon variant="subtle" color="red" aria-label="Delete exhibit" onClick={handleDeleteClick}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
            </Group>
            {current.leader && (
              <Text size="sm" c="dimmed">
                Follows {current.leader.name}
              </Text>
            )}
          </Box>
          <Group gap="md">
            <Badge color={current.online ? 'teal' : 'gray'} variant="light" aria-label={current.online ? 'Exhibit online' : 'Exhibit offline'}>
              {current.online ? 'Online' : 'Offline'}
            </Badge>
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
              <Tooltip label="The exhibit is offline: its op mode reads Off.">
                <div>{opModeSwitch}</div>
              </Tooltip>
            ) : (
              opModeSwitch
            )}
          </Group>
        </Group>
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
      </Stack>
      <ItemEditDialogs
        itemType="exhibit"
        itemName={current.name}
        open={dialog}
        onClose={(which) => setDialog((d) => (d === which ? null : d))}
        onRename={handleRename}
        onDelete={handleDelete}
        lockedExhibits={[{ id: current.id, name: current.name }]}
      />
      <ConfirmDialog
        opened={dialog === 'opMode'}
        onClose={() => setDialog(null)}
        title="Change operating mode"
        message={`Turn the operating mode of ${current.name} ${nextMode}? This changes the state of the exhibit.`}
        onConfirm={handleOpMode}
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
        onConfirm={handleToggleLock}
      />
      <UnsavedChangesDialog opened={leave.isPrompting} onCancel={leave.cancel} onProceed={leave.proceed} />
    </Flex>
  );
}
