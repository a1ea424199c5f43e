import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCpu } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { can, isValidMqttPath, MQTT_PATH_MESSAGE, parseRole, type Exhibit, type Hardware } from '@plinth/shared';
import { updateExhibit, updateHardware, useHardwareBySite } from '../../../api/devices';
import { useExhibitHardware } from '../../../api/hardware-runtime';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { DialogError } from '../../../components/dialogs/DialogError';
import { useClickGuard } from '../../../components/useClickGuard';
import { useRealtimeSubscription } from '../../../lib/realtime-context';

/** Hardware cards show the last update as MM/DD/YYYY, h:mm:ss a (spec section 9). */
export function formatCardDate(iso: string): string {
  const date = dayjs(iso);
  return date.isValid() ? date.format('MM/DD/YYYY, h:mm:ss a') : '-';
}

function OnlineBadge({ online }: { online: boolean }) {
  return (
    <Badge color={online ? 'teal' : 'gray'} variant="light" size="sm">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}

export type ConnectHardwareDialogProps = {
  opened: boolean;
  onClose: () => void;
  exhibitId: string;
  /** The site's hardware the caller may see. */
  hardware: Hardware[];
  isLoading?: boolean;
  /** Connects the added hardware and disconnects the removed ones. */
  onUpdate: (change: { connect: string[]; disconnect: string[] }) => Promise<void>;
};

/**
 * The 'Connect to Hardware' modal (spec 2.6): the site's hardware with online indicators, the
 * connected ones ticked; Update is enabled only when the selection changed.
 */
export function ConnectHardwareDialog({ opened, onClose, exhibitId, hardware, isLoading, onUpdate }: ConnectHardwareDialogProps) {
  const initial = hardware.filter((h) => h.exhibitId === exhibitId).map((h) => h.id);
  const initialKey = [...initial].sort().join(',');
  const [selected, setSelected] = useState<string[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setSelected(initialKey ? initialKey.split(',') : []);
      setError(null);
      setBusy(false);
    }
  }, [opened, initialKey]);

  const connect = selected.filter((id) => !initial.includes(id));
  const disconnect = initial.filter((id) => !selected.includes(id));
  const changed = connect.length > 0 || disconnect.length > 0;
  const sorted = [...hardware].sort((a, b) => a.name.localeCompare(b.name));

  const submit = useClickGuard(() => {
    if (!changed) return;
    setBusy(true);
    setError(null);
    onUpdate({ connect, disconnect })
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : 'Could not update the connected hardware.'))
      .finally(() => setBusy(false));
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Connect to Hardware" centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          {isLoading ? (
            <Loader aria-label="Loading hardware" />
          ) : sorted.length === 0 ? (
            <Text c="dimmed">No hardware available.</Text>
          ) : (
            <ScrollArea.Autosize mah={320}>
              <Checkbox.Group value={selected} onChange={setSelected} aria-label="Hardware">
                <Stack gap="xs">
                  {sorted.map((h) => (
                    <Group key={h.id} justify="space-between" wrap="nowrap">
                      <Checkbox value={h.id} label={h.name} />
                      <OnlineBadge online={h.online} />
                    </Group>
                  ))}
                </Stack>
              </Checkbox.Group>
            </ScrollArea.Autosize>
          )}
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!changed || busy} loading={busy}>
              Update
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A connected hardware unit: name, online indicator, last update; opens the hardware overview. */
function ConnectedHardwareCard({ hardware }: { hardware: Hardware }) {
  const to = paths.hardware(hardware.organizationId, hardware.siteId, hardware.id, 'overview');
  return (
    <Card withBorder padding="md" data-testid="connected-hardware">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={to} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {hardware.name}
          </Anchor>
          <OnlineBadge online={hardware.online} />
        </Group>
        <Text size="xs" c="dimmed">
          Last updated {formatCardDate(hardware.updatedAt)}
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
  const queryClient = useQueryClient();
  const role = parseRole(exhibit.role);
  const canEditMqtt = can(role, 'editSettings');
  const canConnect = can(role, 'manageDevices');
  const [mqttPath, setMqttPath] = useState(exhibit.mqttPath);
  const [saving, setSaving] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  useEffect(() => setMqttPath(exhibit.mqttPath), [exhibit.mqttPath]);

  const connected = useExhibitHardware(exhibit.id);
  const siteHardware = useHardwareBySite(canConnect ? exhibit.siteId : undefined);
  const connectedList = connected.data?.hardware ?? [];
  useRealtimeSubscription(
    [],
    connectedList.map((h) => h.id),
  );
  useEffect(() => {
    if (connected.isError) console.error('Could not retrieve hardware for this exhibit', connected.error);
  }, [connected.isError, connected.error]);

  const trimmed = mqttPath.trim();
  const valid = isValidMqttPath(trimmed);
  const unchanged = trimmed === exhibit.mqttPath;

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || unchanged || !canEditMqtt) return;
    setSaving(true);
    try {
      const updated = await updateExhibit(exhibit.id, { mqttPath: trimmed });
      queryClient.setQueryData(queryKeys.exhibit(exhibit.id), updated);
      await queryClient.invalidateQueries({ queryKey: queryKeys.exhibits });
    } catch (e) {
      console.error('Could not update exhibit mqtt', e);
    } finally {
      setSaving(false);
    }
  };

  const handleUpdate = async ({ connect, disconnect }: { connect: string[]; disconnect: string[] }) => {
    try {
      for (const id of connect) await updateHardware(id, { exhibitId: exhibit.id });
      for (const id of disconnect) await updateHardware(id, { exhibitId: null });
    } catch (e) {
      console.error('Could not update exhibit id in hardware', e);
      throw e;
    } finally {
      await queryClient.invalidateQueries({
        queryKey: queryKeys.hardwareLists,
      });
      for (const id of [...connect, ...disconnect])
        void queryClient.invalidateQueries({
          queryKey: queryKeys.hardware(id),
          exact: true,
        });
    }
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <form onSubmit={(e) => void handleSave(e)}>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="MQTT IP Address"
              placeholder="###.###.###.###:####"
              value={mqttPath}
              onChange={(e) => setMqttPath(e.currentTarget.value)}
              error={valid ? undefined : MQTT_PATH_MESSAGE}
              disabled={!canEditMqtt}
              maxLength={64}
              w={320}
            />
            <Button type="submit" mt={25} disabled={!canEditMqtt || unchanged || !valid} loading={saving}>
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
      {connected.isPending ? (
        <Loader aria-label="Loading hardware" />
      ) : connectedList.length === 0 ? (
        <Text c="dimmed">No hardware is connected to this exhibit.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[...connectedList]
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((h) => (
              <ConnectedHardwareCard key={h.id} hardware={h} />
            ))}
        </SimpleGrid>
      )}
      {canConnect && (
        <ConnectHardwareDialog
          opened={dialogOpen}
          onClose={() => setDialogOpen(false)}
          exhibitId={exhibit.id}
          hardware={siteHardware.data?.hardware ?? []}
          isLoading={siteHardware.isPending}
          onUpdate={handleUpdate}
        />
      )}
    </Stack>
  );
}
