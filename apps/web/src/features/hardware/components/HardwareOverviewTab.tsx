import { ActionIcon, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Exhibit } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import type { GatedQuery } from '../../../components/QueryGate';
import { useUpdateHardware } from '../../../lib/api/update-hardware';
import { formatDate } from '../../../lib/format-date';
import { paths } from '../../../lib/paths';
import { orDash, peripheralCount } from '../lib/format';
import { ConnectExhibitDialog } from './ConnectExhibitDialog';
import type { HardwareFrame } from '../api/get-hardware';

export type HardwareOverviewTabProps = {
  hardware: HardwareFrame;
  /** The read of the site's exhibits the caller may see (the connected one is a link only when listed here). */
  exhibits: GatedQuery<Exhibit[]>;
  /** May connect, change and disconnect the exhibit. */
  canEditExhibit: boolean;
};

/** The overview's fields in the spec's order (2.13). */
export function overviewFields(hardware: HardwareFrame): { label: string; value: string }[] {
  return [
    { label: 'Last Updated', value: formatDate(hardware.updatedAt, 'detail') },
    { label: 'Created At', value: formatDate(hardware.createdAt, 'detail') },
    { label: 'ID', value: orDash(hardware.id) },
    { label: 'IP', value: orDash(hardware.ip) },
    { label: 'MAC', value: orDash(hardware.mac) },
    { label: 'Plinth Firmware Version', value: orDash(hardware.plinth_fw) },
    { label: 'User Firmware Version', value: orDash(hardware.user_fw) },
    { label: 'Number of Peripherals', value: peripheralCount(hardware) },
    { label: 'Temp', value: orDash(hardware.temp) },
    { label: 'Voltage', value: orDash(hardware.voltage) },
    { label: 'Uptime (in min.)', value: orDash(hardware.uptime) },
    { label: 'Exhibit IP', value: orDash(hardware.exhibitIP) },
    { label: 'Exhibit State', value: orDash(hardware.exhibitState) },
  ];
}

/**
 * The hardware overview (spec 2.13): the connected exhibit (a link when the caller may see it,
 * with change and disconnect for permitted roles) or Connect to Exhibit, and every field of the
 * record, kept live by the socket through the query cache.
 */
export function HardwareOverviewTab({ hardware, exhibits, canEditExhibit }: HardwareOverviewTabProps) {
  const connect = useUpdateHardware();
  const disconnect = useUpdateHardware();
  const [dialog, setDialog] = useState<'connect' | 'disconnect' | null>(null);
  const exhibitVisible = hardware.exhibitId !== null && (exhibits.data ?? []).some((e) => e.id === hardware.exhibitId);

  const handleConnect = (exhibitId: string) =>
    connect.mutateAsync({ hardwareId: hardware.id, data: { exhibitId } }).catch((e: unknown) => {
      console.error('Could not connect to exhibit', e);
      throw e;
    });

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              Connected Exhibit
            </Text>
            {hardware.exhibitId ? (
              exhibitVisible ? (
                <Anchor component={Link} to={paths.exhibit(hardware.organizationId, hardware.siteId, hardware.exhibitId, 'overview')} fw={600}>
                  {hardware.exhibitName ?? 'Exhibit'}
                </Anchor>
              ) : (
                <Text fw={600}>{hardware.exhibitName ?? 'Exhibit'}</Text>
              )
            ) : (
              <Text c="dimmed">Not connected to an exhibit</Text>
            )}
          </Stack>
          {canEditExhibit &&
            (hardware.exhibitId ? (
              <Group gap={4} wrap="nowrap">
                <Tooltip label="Change exhibit">
                  <ActionIcon variant="subtle" aria-label="Change exhibit" onClick={() => setDialog('connect')}>
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Disconnect exhibit">
                  <ActionIcon variant="subtle" color="red" aria-label="Disconnect exhibit" onClick={() => setDialog('disconnect')}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ) : (
              <Button leftSection={<IconPlugConnected size={18} />} onClick={() => setDialog('connect')}>
                Connect to Exhibit
              </Button>
            ))}
        </Group>
      </Paper>
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
          {overviewFields(hardware).map((field) => (
            <Group key={field.label} gap="xs" wrap="nowrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed" w={190} style={{ flexShrink: 0 }}>
                {field.label}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }} data-testid={`field-${field.label}`}>
                {field.value}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Paper>
      <ConnectExhibitDialog
        opened={dialog === 'connect'}
        onClose={() => setDialog(null)}
        exhibits={exhibits}
        currentExhibitId={hardware.exhibitId}
        onConnect={handleConnect}
        mutation={connect}
      />
      <ConfirmDialog
        opened={dialog === 'disconnect'}
        onClose={() => setDialog(null)}
        title="Disconnect exhibit"
        message={`Disconnect this hardware from ${hardware.exhibitName ?? 'its exhibit'}?`}
        danger
        onConfirm={() => disconnect.mutateAsync({ hardwareId: hardware.id, data: { exhibitId: null } })}
        mutation={disconnect}
      />
    </Stack>
  );
}
