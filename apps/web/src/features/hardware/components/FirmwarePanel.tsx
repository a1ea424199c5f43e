import { Alert, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import type { Firmware, FirmwareHistoryEntry, Hardware } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { GuardedButton } from '../../../components/GuardedButton';
import { formatDate } from '../../../lib/format-date';
import { errorText } from '../../../lib/mutation-state';
import { useCreateFirmware } from '../api/create-firmware';
import { useDeleteFirmware } from '../api/delete-firmware';
import { usePushFirmware } from '../api/push-firmware';
import { formatFileSize } from '../lib/format';
import { FirmwareUploadDialog } from './FirmwareUploadDialog';

export const UPDATE_OFFLINE_WARNING = 'Update is only available when the hardware is online.';
export const FIRMWARE_APPLYING_MESSAGE =
  'The firmware is being applied in the background. Do not power off the hardware until it has finished. Check the log file to follow the update.';

export type FirmwarePanelProps = {
  hardware: Pick<Hardware, 'id' | 'siteId' | 'name'>;
  isPlinthFirmware: boolean;
  available: Firmware[];
  history: FirmwareHistoryEntry[];
  /** The version the board last announced. */
  currentVersion: string | null;
  online: boolean;
  /** May upload, update and delete firmware. */
  canOperate: boolean;
  /** Whether another record (of either panel) uses this firmware's file, which then stays on delete. */
  isFileShared: (firmware: Firmware) => boolean;
};

function sameVersion(a: string, b: string): boolean {
  if (a.trim() === b.trim()) return true;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && x === y;
}

function CurrentFirmware({ currentVersion, available }: { currentVersion: string | null; available: Firmware[] }) {
  if (!currentVersion) return <Text c="dimmed">No current firmware</Text>;
  const match = available.find((f) => sameVersion(f.version, currentVersion));
  if (!match) return <Text>Current firmware not found in available firmware. Current firmware version: {currentVersion}</Text>;
  return (
    <Text>
      {match.name} (version {match.version})
    </Text>
  );
}

const STATUS_COLOURS: Record<FirmwareHistoryEntry['status'], string> = { pending: 'yellow', applied: 'teal', failed: 'red' };

/**
 * One firmware panel of the firmware tab (spec 2.13): Current Firmware, Available Firmware with
 * selectable rows, Change History, and the header actions: Upload, or Update and Delete while a
 * row is selected. Update needs the hardware online; after it a dialog explains the background update.
 */
export function FirmwarePanel(props: FirmwarePanelProps) {
  const { hardware, isPlinthFirmware, available, history, currentVersion, online, canOperate, isFileShared } = props;
  const upload = useCreateFirmware(hardware, isPlinthFirmware);
  const push = usePushFirmware(hardware.id);
  const remove = useDeleteFirmware(hardware);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'upload' | 'update' | 'delete' | 'applying' | null>(null);
  const selected = available.find((f) => f.id === selectedId) ?? null;
  const title = isPlinthFirmware ? 'Plinth Firmware (.gbm0)' : 'User Firmware (.gbm4)';

  const toggle = (id: string) => setSelectedId((current) => (current === id ? null : id));
  const handleRowKey = (event: KeyboardEvent, id: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle(id);
    }
  };
  const handleUpdate = async () => {
    if (!selected) return;
    await push.mutateAsync(selected.id);
    setDialog('applying');
  };
  // Closing the update question after it succeeded leaves the "update started" dialog open.
  const closeUpdateQuestion = () => setDialog((current) => (current === 'update' ? null : current));
  const handleDelete = async () => {
    if (!selected) return;
    await remove.mutateAsync({ firmware: selected, isFileShared: isFileShared(selected) });
    setSelectedId(null);
  };

  return (
    <Paper withBorder p="md" aria-label={title} component="section">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={4}>{title}</Title>
          {canOperate &&
            (selected ? (
              <Group gap="xs">
                <GuardedButton disabled={!online} loading={push.isPending} onClick={() => setDialog('update')}>
                  Update
                </GuardedButton>
                <Button color="red" variant="light" onClick={() => setDialog('delete')}>
                  Delete
                </Button>
              </Group>
            ) : (
              <Button onClick={() => setDialog('upload')}>Upload</Button>
            ))}
        </Group>
        {canOperate && selected && !online && (
          <Alert color="yellow" variant="light" p="xs">
            {UPDATE_OFFLINE_WARNING}
          </Alert>
        )}
        {push.error && dialog !== 'update' && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {errorText(push.error, 'Could not update the firmware.')}
          </Alert>
        )}
        <Stack gap={4}>
          <Text fw={600}>Current Firmware</Text>
          <CurrentFirmware currentVersion={currentVersion} available={available} />
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>Available Firmware</Text>
          {available.length === 0 ? (
            <Text c="dimmed">No firmware available</Text>
          ) : (
            <Table.ScrollContainer minWidth={420}>
              <Table highlightOnHover aria-label={`Available ${isPlinthFirmware ? 'Plinth' : 'User'} Firmware`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Date Uploaded</Table.Th>
                    <Table.Th>Filesize</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {available.map((f) => {
                    const isSelected = f.id === selectedId;
                    return (
                      <Table.Tr
                        key={f.id}
                        onClick={() => toggle(f.id)}
                        onKeyDown={(e) => handleRowKey(e, f.id)}
                        tabIndex={0}
                        aria-selected={isSelected}
                        bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                        style={{ cursor: 'pointer' }}
                      >
                        <Table.Td>{f.version}</Table.Td>
                        <Table.Td>{f.name}</Table.Td>
                        <Table.Td>{formatDate(f.createdAt, 'detail')}</Table.Td>
                        <Table.Td>{formatFileSize(f.fileSize)}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>Change History</Text>
          {history.length === 0 ? (
            <Text c="dimmed">No history available</Text>
          ) : (
            <Table.ScrollContainer minWidth={420}>
              <Table aria-label={`${isPlinthFirmware ? 'Plinth' : 'User'} Firmware Change History`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {history.map((h) => (
                    <Table.Tr key={h.id}>
                      <Table.Td>{h.version}</Table.Td>
                      <Table.Td>{h.name}</Table.Td>
                      <Table.Td>{formatDate(h.createdAt, 'detail')}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOURS[h.status]} variant="light" title={h.error ?? undefined}>
                          {h.status}
                        </Badge>
                        {h.error && (
                          <Text size="xs" c="dimmed">
                            {h.error}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Stack>
      <FirmwareUploadDialog
        opened={dialog === 'upload'}
        onClose={() => setDialog(null)}
        isPlinthFirmware={isPlinthFirmware}
        onUpload={upload.mutateAsync}
        mutation={upload}
      />
      <ConfirmDialog
        opened={dialog === 'update'}
        onClose={closeUpdateQuestion}
        title="Update firmware"
        message={
          selected
            ? `Install ${selected.name} (version ${selected.version}) on 1 board, ${hardware.name}? It restarts to apply it and must stay powered until the update has finished.`
            : ''
        }
        confirmLabel="Update"
        cancelLabel="Cancel"
        danger
        onConfirm={handleUpdate}
        mutation={push}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title="Delete firmware"
        message={selected ? `Delete the firmware ${selected.name} (version ${selected.version})?` : ''}
        danger
        onConfirm={handleDelete}
        mutation={remove}
      />
      <Modal opened={dialog === 'applying'} onClose={() => setDialog(null)} title="Firmware update started" centered>
        <Stack>
          <Text>{FIRMWARE_APPLYING_MESSAGE}</Text>
          <Group justify="flex-end">
            <Button onClick={() => setDialog(null)} data-autofocus>
              OK
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
