import { Anchor, Button, Card, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCpu } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { can, MqttPath, parseRole, type Exhibit, type Hardware } from '@plinth/shared';
import { z } from 'zod';
import { CardGrid } from '../../../components/CardGrid';
import { pickGated, QueryGate } from '../../../components/QueryGate';
import { OnlineBadge } from '../../../components/OnlineBadge';
import { useHardwareBySite } from '../../../lib/api/list-hardware-by-site';
import { useUpdateExhibit } from '../../../lib/api/update-exhibit';
import { formatDate } from '../../../lib/format-date';
import { paths } from '../../../lib/paths';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { resetForm } from '../../../lib/reset-form';
import { schemaResolver } from '../../../lib/schema-resolver';
import { useExhibitHardware } from '../api/list-exhibit-hardware';
import { useUpdateHardwareConnections } from '../api/update-hardware-connections';
import { ConnectHardwareDialog } from './ConnectHardwareDialog';
import { useHardwareWithStatus } from '../../../lib/hardware-live-status';

/** The MQTT address field, checked as the server checks it (its message shows as it is typed). */
const MqttFormSchema = z.object({ mqttPath: MqttPath });

/** A connected hardware unit: name, online indicator, last update; opens the hardware overview. */
function ConnectedHardwareCard({ hardware: read }: { hardware: Hardware }) {
  // The list's record with the board's newest heartbeat (updatedAt).
  const hardware = useHardwareWithStatus(read);
  const to = paths.hardware(hardware.organizationId, hardware.siteId, hardware.id, 'overview');
  return (
    <Card withBorder padding="md" data-testid="connected-hardware">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={to} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {hardware.name}
          </Anchor>
          <OnlineBadge online={hardware.online} size="sm" />
        </Group>
        <Text size="xs" c="dimmed">
          Last updated {formatDate(hardware.updatedAt, 'cardWithSeconds')}
        </Text>
      </Stack>
    </Card>
  );
}

/**
 * The exhibit's Hardware tab (spec document 2, section 2.6): the MQTT IP Address with Save
 * (validated; DEVELOPER and above), Connect hardware (DEVELOPER and above) and the cards of the
 * connected hardware, kept live by the socket.
 */
export function ExhibitHardwareTab({ exhibit }: { exhibit: Exhibit }) {
  const role = parseRole(exhibit.role);
  const canEditMqtt = can(role, 'editSettings');
  const canConnect = can(role, 'manageDevices');
  const updateExhibit = useUpdateExhibit();
  const connections = useUpdateHardwareConnections(exhibit.id);
  const form = useForm({ initialValues: { mqttPath: exhibit.mqttPath }, validate: schemaResolver(MqttFormSchema), validateInputOnChange: true });
  const [dialogOpen, setDialogOpen] = useState(false);

  // A new saved address (this save, or one made elsewhere) replaces what the field shows.
  useEffect(() => {
    resetForm(form, { mqttPath: exhibit.mqttPath });
    form.validate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new saved address resets the field
  }, [exhibit.mqttPath]);

  const connected = useExhibitHardware(exhibit.id);
  const siteHardware = useHardwareBySite(canConnect ? exhibit.siteId : undefined);
  const connectedList = connected.data?.hardware ?? [];
  useRealtimeSubscription(
    [],
    connectedList.map((h) => h.id),
  );

  const trimmed = form.values.mqttPath.trim();
  const isValid = form.isValid();
  const isUnchanged = trimmed === exhibit.mqttPath;

  // A failed save is logged only; the field keeps what was typed.
  const handleSave = form.onSubmit(() => {
    if (!isValid || isUnchanged || !canEditMqtt) return;
    updateExhibit
      .mutateAsync({ exhibitId: exhibit.id, data: { mqttPath: trimmed } })
      .catch((e: unknown) => console.error('Could not update exhibit mqtt', e));
  });

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <form onSubmit={handleSave}>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="MQTT IP Address"
              placeholder="###.###.###.###:####"
              {...form.getInputProps('mqttPath')}
              disabled={!canEditMqtt}
              maxLength={64}
              w={320}
            />
            <Button type="submit" mt={25} disabled={!canEditMqtt || isUnchanged || !isValid} loading={updateExhibit.isPending}>
              Save
            </Button>
          </Group>
        </form>
      </Paper>
      <Group justify="space-between">
        <Title order={4}>Connected Hardware</Title>
        {canConnect && (
          <Button leftSection={<IconCpu size={18} />} onClick={() => setDialogOpen(true)}>
            Connect hardware
          </Button>
        )}
      </Group>
      <QueryGate query={connected} loading="Loading hardware" failed="The hardware of this exhibit cannot be shown right now.">
        {(data) => (
          <CardGrid
            items={[...data.hardware].sort((a, b) => a.name.localeCompare(b.name))}
            renderCard={(h) => <ConnectedHardwareCard hardware={h} />}
            emptyText="No hardware is connected to this exhibit."
          />
        )}
      </QueryGate>
      {canConnect && (
        <ConnectHardwareDialog
          opened={dialogOpen}
          onClose={() => setDialogOpen(false)}
          exhibitId={exhibit.id}
          hardware={pickGated(siteHardware, (d) => d.hardware)}
          onUpdate={connections.mutateAsync}
          mutation={connections}
        />
      )}
    </Stack>
  );
}
