import { ActionIcon, Anchor, Badge, Box, Center, Flex, Group, Loader, Paper, Stack, Switch, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { BREAKPOINT_NARROW_PX, can, parseRole, type Role } from '@plinth/shared';
import { deleteHardware, updateHardware, useExhibitsBySites, useHardware, useHardwareBySite } from '../../../api/devices';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { ItemEditDialogs } from '../../../components/dialogs/ItemEditDialogs';
import { LeftNav } from '../../../components/LeftNav';
import { ApiError } from '../../../lib/api-client';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useHardwareLiveEvents } from '../hooks/useHardwareLiveEvents';
import { HardwareAuthTab } from './HardwareAuthTab';
import { HardwareFirmwareTab } from './HardwareFirmwareTab';
import { HardwareOverviewTab } from './HardwareOverviewTab';
import { HardwarePeripheralsTab } from './HardwarePeripheralsTab';

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

type Dialog = 'rename' | 'delete' | 'debug' | null;

/**
 * The hardware detail screen (/organization/:orgId/site/:siteId/hardware/:hardwareId/:hardwareTab,
 * spec 2.13): the site's hardware on the left with online and debug state, the debug-mode toggle,
 * edit and delete, and the tabs. A 403 shows a notice; any other load failure goes to /notfound.
 * While shown, the socket is subscribed to the hardware (and the site's other hardware for the list).
 */
export function HardwarePage() {
  const { orgId = '', siteId = '', hardwareId = '', hardwareTab } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const [dialog, setDialog] = useState<Dialog>(null);

  const hardware = useHardware(hardwareId);
  const siteHardware = useHardwareBySite(siteId);
  const exhibits = useExhibitsBySites(siteId ? [siteId] : []);
  const siteList = siteHardware.data?.hardware ?? [];
  useRealtimeSubscription(
    [],
    [...new Set([hardwareId, ...siteList.map((h) => h.id)])].filter(Boolean),
  );
  const backToSite = useCallback(() => navigate(paths.site(orgId, siteId, 'hardware')), [navigate, orgId, siteId]);
  useHardwareLiveEvents(hardwareId, backToSite);

  // Set once this hardware is deleted: its query then fails with 404 while the page is leaving,
  // and that must not send the user to /notfound instead of the site's hardware tab.
  const deleted = useRef(false);
  const status = hardware.error instanceof ApiError ? hardware.error.status : null;
  useEffect(() => {
    if (deleted.current) return;
    if (hardware.isError && status !== 403) {
      console.error('Hardware load failed', hardware.error);
      navigate(paths.notFound(), { replace: true });
    }
  }, [hardware.isError, hardware.error, status, navigate]);
  useEffect(() => {
    if (siteHardware.isError) console.error('Could not load the site hardware', siteHardware.error);
  }, [siteHardware.isError, siteHardware.error]);

  if (hardwareTab === undefined) return <Navigate to={paths.hardware(orgId, siteId, hardwareId, 'overview')} replace />;
  if (status === 403) {
    return (
      <Center p="xl">
        <Text>You do not have access to this hardware.</Text>
      </Center>
    );
  }
  if (!hardware.data) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading hardware" />
      </Center>
    );
  }

  const current = hardware.data;
  const role = parseRole(current.role);
  const tabs = hardwareTabsFor(role);
  if (!(tabs as string[]).includes(hardwareTab)) return <Navigate to={paths.hardware(orgId, siteId, hardwareId, 'overview')} replace />;
  const tab = hardwareTab as HardwareTab;
  const canEdit = can(role, 'manageDevices');
  const canOperate = can(role, 'operate');
  const debugDisabled = !canOperate || !current.online;

  const handleRename = async (name: string) => {
    const updated = await updateHardware(hardwareId, { name });
    queryClient.setQueryData(queryKeys.hardware(hardwareId), updated);
    await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
  };
  const handleDelete = async () => {
    await deleteHardware(hardwareId);
    deleted.current = true;
    setDialog(null);
    backToSite();
    queryClient.removeQueries({ queryKey: queryKeys.hardware(hardwareId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
  };
  const handleDebug = async () => {
    const updated = await updateHardware(hardwareId, { controlDebug: !current.controlDebug });
    queryClient.setQueryData(queryKeys.hardware(hardwareId), updated);
    await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
  };

  const listed = siteList.some((h) => h.id === current.id) ? siteList : [...siteList, current];
  const navItems = [...listed]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((h) => {
      const live = h.id === current.id ? current : h;
      return { id: h.id, label: live.name, to: paths.hardware(orgId, siteId, h.id, tab === 'auth' ? 'overview' : tab), online: live.online, debug: live.controlDebug };
    });

  return (
    <Flex gap="md" direction={narrow ? 'column' : 'row'} align="flex-start">
      <Paper withBorder p="sm" w={narrow ? '100%' : 240} style={{ flexShrink: 0 }}>
        <LeftNav title={current.siteName} onBack={backToSite} backLabel="Back to site hardware" items={navItems} activeId={current.id} />
      </Paper>
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }} w="100%">
        <Group justify="space-between" wrap="wrap" align="flex-end">
          <Box style={{ minWidth: 0 }}>
            <Group gap={6}>
              <Anchor component={Link} to={paths.organization(orgId, 'sites')} size="sm">
                {current.organizationName}
              </Anchor>
              <Text size="sm" c="dimmed">
                /
              </Text>
              <Anchor component={Link} to={paths.site(orgId, siteId, 'hardware')} size="sm">
                {current.siteName}
              </Anchor>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Title order={2} style={{ overflowWrap: 'anywhere' }}>
                {current.name}
              </Title>
              <Badge color={current.online ? 'teal' : 'gray'} variant="light">
                {current.online ? 'Online' : 'Offline'}
              </Badge>
              {canEdit && (
                <>
                  <Tooltip label="Edit hardware name">
                    <ActionIcon variant="subtle" aria-label="Edit hardware name" onClick={() => setDialog('rename')}>
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete hardware">
                    <ActionIcon variant="subtle" color="red" aria-label="Delete hardware" onClick={() => setDialog('delete')}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
            </Group>
          </Box>
          <Tooltip
            label={!canOperate ? 'Your role cannot change debug mode' : 'Debug mode can be changed only while the hardware is online'}
            disabled={!debugDisabled}
          >
            <div>
              <Switch
                label="Debug Mode"
                checked={current.controlDebug}
                disabled={debugDisabled}
                onChange={() => setDialog('debug')}
              />
            </div>
          </Tooltip>
        </Group>
        <Tabs value={tab} onChange={(next) => next && navigate(paths.hardware(orgId, siteId, hardwareId, next))} keepMounted={false}>
          <Tabs.List>
            {tabs.map((t) => (
              <Tabs.Tab key={t} value={t}>
                {TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="overview" pt="md">
            <HardwareOverviewTab hardware={current} exhibits={exhibits.data?.exhibits ?? []} exhibitsLoading={exhibits.isPending} canEditExhibit={canEdit} />
          </Tabs.Panel>
          <Tabs.Panel value="peripherals" pt="md">
            <HardwarePeripheralsTab hardware={current} canOperate={canOperate} />
          </Tabs.Panel>
          <Tabs.Panel value="logs" pt="md">
            <Text c="dimmed">This tab is not available yet.</Text>
          </Tabs.Panel>
          <Tabs.Panel value="reports" pt="md">
            <Text c="dimmed">This tab is not available yet.</Text>
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
      </Stack>
      <ItemEditDialogs
        itemType="hardware"
        itemName={current.name}
        open={dialog}
        onClose={(which) => setDialog((d) => (d === which ? null : d))}
        onRename={handleRename}
        onDelete={handleDelete}
      />
      <ConfirmDialog
        opened={dialog === 'debug'}
        onClose={() => setDialog(null)}
        title={current.controlDebug ? 'Turn off debug mode' : 'Turn on debug mode'}
        message={debugConfirmMessage(!current.controlDebug)}
        onConfirm={handleDebug}
      />
    </Flex>
  );
}
