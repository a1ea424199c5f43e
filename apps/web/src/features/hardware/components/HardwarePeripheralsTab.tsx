import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { memo, useCallback, useMemo, useState } from 'react';
import { SYNC_HARDWARE_MIN_FW, type Hardware, type HardwareCommand, type ServerMessage } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { errorText } from '../../../lib/mutation-state';
import { useRealtimeListener } from '../../../lib/realtime-context';
import { useHardwarePeripherals, type HardwareFrame } from '../api/get-hardware';
import { useRunHardwareCommand } from '../api/run-hardware-command';
import { commandOutcome } from '../lib/command-outcome';
import { isPressed } from '../lib/prop-values';
import { PropControl } from './PropControl';

/** Sync Hardware Values needs Plinth firmware 46 or above (spec section 9). */
export function canSyncHardwareValues(plinthFw: string | null): boolean {
  if (!plinthFw) return false;
  const version = parseFloat(plinthFw);
  return Number.isFinite(version) && version >= SYNC_HARDWARE_MIN_FW;
}

const COMMAND_LABELS: Record<HardwareCommand, string> = { reboot: 'Reboot', get: 'Sync Hardware Values', identify: 'Identify' };
/** The confirm dialog writes nothing itself: it only lets the command go out. */
const NO_WRITE = { isPending: false, error: null };

type PeripheralRecord = Hardware['peripherals'][number];
type VisiblePeripheral = { id: string; name: string; record: PeripheralRecord; visibleProps: PeripheralRecord['props'] };

/** One wrapper per peripheral record: an unchanged peripheral keeps its record, so it keeps its wrapper. */
const visibleOf = new WeakMap<PeripheralRecord, VisiblePeripheral>();

function visible(record: PeripheralRecord): VisiblePeripheral {
  let wrapped = visibleOf.get(record);
  if (!wrapped) {
    wrapped = { id: record.id, name: record.name, record, visibleProps: record.props.filter((prop) => prop.hide !== 'true') };
    visibleOf.set(record, wrapped);
  }
  return wrapped;
}

/**
 * The hardware's peripherals with their props not hidden, live from the hardware record. A
 * peripheral and prop keep their objects while unchanged, so a prop change at 1,000 a second
 * draws again only its own peripheral's card and control (issue 17).
 */
function useVisiblePeripherals(hardwareId: string): VisiblePeripheral[] {
  const peripherals = useHardwarePeripherals(hardwareId);
  return useMemo(() => (peripherals ?? []).map(visible).filter((p) => p.visibleProps.length > 0), [peripherals]);
}

type PeripheralsProps = { hardwareId: string; enabled: boolean; presses: Record<string, number> };

/** The Peripherals section: the only part of the tab that follows the live prop values. */
function Peripherals({ hardwareId, enabled, presses }: PeripheralsProps) {
  const peripherals = useVisiblePeripherals(hardwareId);
  return (
    <Stack gap="xs">
      <Title order={4}>Peripherals</Title>
      {peripherals.length === 0 ? (
        <Text c="dimmed">No peripherals reported by this hardware.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {peripherals.map((peripheral) => (
            <PeripheralCard key={peripheral.id} hardwareId={hardwareId} peripheral={peripheral} enabled={enabled} presses={presses} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

const PeripheralCard = memo(function PeripheralCard({ peripheral, hardwareId, enabled, presses }: PeripheralsProps & { peripheral: VisiblePeripheral }) {
  return (
    <Paper withBorder p="sm" data-testid={`peripheral-${peripheral.name}`}>
      <Stack gap="sm">
        <Text fw={600}>{peripheral.name}</Text>
        {peripheral.visibleProps.map((prop) => (
          <PropControl
            key={prop.name}
            hardwareId={hardwareId}
            peripheral={peripheral.record}
            prop={prop}
            enabled={enabled}
            pressCount={presses[`${peripheral.id}/${prop.name}`]}
          />
        ))}
      </Stack>
    </Paper>
  );
});

/**
 * The peripherals tab (spec 2.13): the default board controls and every peripheral's visible
 * props. Controls are enabled only while debug mode is on, the hardware is online and the caller
 * may operate it. Live presses of button props blink for one second.
 */
export function HardwarePeripheralsTab({ hardware, canOperate }: { hardware: HardwareFrame; canOperate: boolean }) {
  const enabled = canOperate && hardware.controlDebug && hardware.online;
  const run = useRunHardwareCommand();
  const busy = run.isPending ? (run.variables?.command ?? null) : null;
  const failedCommand = run.isError ? run.variables?.command : undefined;
  const [presses, setPresses] = useState<Record<string, number>>({});
  const [isConfirmingReboot, setConfirmingReboot] = useState(false);

  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'hardware.propChanged' || message.hardwareId !== hardware.id) return;
      if (message.propType !== 'button' || !isPressed(message.value)) return;
      const key = `${message.peripheralId}/${message.propName}`;
      setPresses((p) => ({ ...p, [key]: (p[key] ?? 0) + 1 }));
    },
    [hardware.id],
  );
  useRealtimeListener(listener);

  // Says the command went out, then what the board answered (the server waits for it, up to its timeout).
  const send = (command: HardwareCommand) => {
    const label = COMMAND_LABELS[command];
    notifications.show({ color: 'blue', message: `${label} was sent to ${hardware.name}.` });
    run.mutateAsync({ hardwareId: hardware.id, command }).then(
      (result) => {
        const outcome = commandOutcome(label, hardware.name, result);
        notifications.show({ color: outcome.ok ? 'teal' : 'red', message: outcome.text });
      },
      // A refused call shows under the buttons (failedCommand).
      () => undefined,
    );
  };
  // A reboot takes the board away for a while, so it asks first.
  const handleCommand = (command: HardwareCommand) => (command === 'reboot' ? setConfirmingReboot(true) : send(command));

  const commands: HardwareCommand[] = canSyncHardwareValues(hardware.plinth_fw) ? ['reboot', 'get', 'identify'] : ['reboot', 'identify'];

  return (
    <Stack gap="lg">
      {!enabled && (
        <Text size="sm" c="dimmed">
          {!canOperate
            ? 'Your role does not allow driving this hardware.'
            : !hardware.online
              ? 'The hardware is offline. Controls are available when it is online and debug mode is on.'
              : 'Turn on debug mode to use the controls.'}
        </Text>
      )}
      <Stack gap="xs">
        <Title order={4}>Default Board Controls</Title>
        <Group gap="sm">
          {commands.map((command) => (
            <Button
              key={command}
              variant="light"
              disabled={!enabled || (busy !== null && busy !== command)}
              loading={busy === command}
              onClick={() => handleCommand(command)}
            >
              {COMMAND_LABELS[command]}
            </Button>
          ))}
        </Group>
        <ConfirmDialog
          opened={isConfirmingReboot}
          onClose={() => setConfirmingReboot(false)}
          title={`Reboot ${hardware.name}`}
          message={`This restarts 1 board, ${hardware.name}: it goes offline for a moment and its peripherals reset.`}
          confirmLabel="Reboot"
          cancelLabel="Cancel"
          danger
          onConfirm={async () => send('reboot')}
          mutation={NO_WRITE}
        />
        {failedCommand && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {`${COMMAND_LABELS[failedCommand]} failed: ${errorText(run.error, 'unknown error')}`}
          </Alert>
        )}
      </Stack>
      <Peripherals hardwareId={hardware.id} enabled={enabled} presses={presses} />
    </Stack>
  );
}
