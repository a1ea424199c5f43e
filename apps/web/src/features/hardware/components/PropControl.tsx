import { Badge, Button, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { memo, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { RgbColorPicker } from 'react-colorful';
import { BLINK_MS, type Peripheral, type Prop } from '@plinth/shared';
import { useSetHardwareProp, type PropSetValue } from '../api/set-hardware-prop';
import {
  checkNumberInput,
  defaultDisplayType,
  displayTypesFor,
  formatNumber,
  isCompleteLedValue,
  isLedProp,
  isNumberProp,
  isOn,
  isPressed,
  ledChannels,
  numericValue,
  sanitizeNumberInput,
  splitLedValue,
  type DisplayType,
} from '../lib/prop-values';
import { orDash } from '../../../lib/no-value';

/** The text shown under a control whose send the server or board refused (spec section 5). */
export const INVALID_DATA_MESSAGE = 'Invalid data entered...';

export type PropControlProps = {
  hardwareId: string;
  peripheral: Peripheral;
  prop: Prop;
  /** Debug mode on, the hardware online and the caller permitted. */
  enabled: boolean;
  /** Increases on each live press of a button prop; each one starts a 1 second blink. */
  pressCount?: number;
};

/** Sends a prop value; answers whether the board accepted it (a refusal is logged and shown as 'Invalid data entered...'). */
function usePropSender(hardwareId: string, peripheral: Peripheral, prop: Prop) {
  const setProp = useSetHardwareProp(hardwareId);
  const send = (value: PropSetValue): Promise<boolean> =>
    setProp.mutateAsync({ peripheralId: peripheral.id, propName: prop.name, value }).then(
      () => true,
      (e: unknown) => {
        console.error('Peripheral update failed', e);
        return false;
      },
    );
  return { send, busy: setProp.isPending, failed: setProp.isError };
}

function FailedLine({ failed }: { failed: boolean }) {
  if (!failed) return null;
  return (
    <Text size="sm" c="red" role="alert">
      {INVALID_DATA_MESSAGE}
    </Text>
  );
}

/** A button prop: idle, or pressed for one second after each live press. */
export function ButtonBlinker({ label, value, pressCount = 0 }: { label: string; value: Prop['value']; pressCount?: number }) {
  const [blinking, setBlinking] = useState(false);
  useEffect(() => {
    if (pressCount === 0) return;
    setBlinking(true);
    const timer = setTimeout(() => setBlinking(false), BLINK_MS);
    return () => clearTimeout(timer);
  }, [pressCount]);
  const pressed = blinking || isPressed(value);
  return (
    <Badge
      color={pressed ? 'orange' : 'gray'}
      variant={pressed ? 'filled' : 'light'}
      data-testid={`blinker-${label}`}
      data-state={pressed ? 'pressed' : 'idle'}
      aria-live="polite"
    >
      {pressed ? 'Pressed' : 'Idle'}
    </Badge>
  );
}

function ToggleControl({ hardwareId, peripheral, prop, enabled }: PropControlProps) {
  const { send, busy, failed } = usePropSender(hardwareId, peripheral, prop);
  const on = isOn(prop.value);
  const settable = prop.settable === 'true';
  return (
    <Stack gap={2}>
      <Switch
        label={on ? 'On' : 'Off'}
        aria-label={`${peripheral.name} ${prop.name}`}
        checked={on}
        disabled={!settable || !enabled || busy}
        onChange={() => void send(on ? 0 : 1)}
      />
      <FailedLine failed={failed} />
    </Stack>
  );
}

function TriggerControl({ hardwareId, peripheral, prop, enabled }: PropControlProps) {
  const { send, busy, failed } = usePropSender(hardwareId, peripheral, prop);
  return (
    <Stack gap={2} align="flex-start">
      <Button size="xs" disabled={prop.settable !== 'true' || !enabled} loading={busy} onClick={() => void send(1)}>
        Trigger
      </Button>
      <FailedLine failed={failed} />
    </Stack>
  );
}

function TextControl({ hardwareId, peripheral, prop, enabled }: PropControlProps) {
  const { send, busy, failed } = usePropSender(hardwareId, peripheral, prop);
  const [draft, setDraft] = useState('');
  const current = prop.value === null ? '' : String(prop.value);
  // The board's buffer (max) holds the trailing null too.
  const maxLength = prop.max != null && prop.max > 0 ? prop.max - 1 : undefined;
  if (prop.settable !== 'true') return <Text size="sm">{orDash(current)}</Text>;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !enabled) return;
    void send(draft).then((ok) => ok && setDraft(''));
  };
  return (
    <form onSubmit={handleSubmit}>
      <Stack gap={2}>
        <Text size="xs" c="dimmed">
          Current: {orDash(current)}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            size="xs"
            aria-label={`${peripheral.name} ${prop.name}`}
            placeholder={current}
            value={draft}
            maxLength={maxLength}
            disabled={!enabled}
            onChange={(e) => setDraft(e.currentTarget.value)}
          />
          <Button size="xs" type="submit" disabled={!enabled || draft === ''} loading={busy}>
            Send
          </Button>
        </Group>
        <FailedLine failed={failed} />
      </Stack>
    </form>
  );
}

function NumberControl({ hardwareId, peripheral, prop, enabled }: PropControlProps) {
  const { send, busy, failed } = usePropSender(hardwareId, peripheral, prop);
  const [displayType, setDisplayType] = useState<DisplayType>(() => defaultDisplayType(prop));
  const [draft, setDraft] = useState('');
  const current = numericValue(prop.value);
  const shown = current === null ? orDash(prop.value) : formatNumber(current, displayType);
  const settable = prop.settable === 'true';
  // The prop without its live value: what the inputs below depend on. The value changes up to
  // 1,000 times a second; only its text is drawn again, not the select and input (issue 17).
  const { name, type, min, max, settable: settableText, hide, displayType: preferred } = prop;
  const limits = useMemo(
    (): Prop => ({ name, type, min, max, settable: settableText, hide, displayType: preferred, value: null }),
    [name, type, min, max, settableText, hide, preferred],
  );
  const check = draft === '' ? null : checkNumberInput(limits, draft, displayType);
  const error = check && !check.ok ? check.message : null;
  const label = `${peripheral.name} ${prop.name}`;

  const handleDisplayType = useCallback(
    (next: string | null) => {
      if (!next) return;
      const nextType = next as DisplayType;
      // Keep what was typed, rewritten in the new display type.
      const typed = draft === '' ? null : checkNumberInput({ ...limits, min: null, max: null, settable: 'true' }, draft, displayType);
      setDisplayType(nextType);
      setDraft(typed && typed.ok && typeof typed.value === 'number' ? sanitizeNumberInput(formatNumber(typed.value, nextType), nextType, limits.type) : '');
    },
    [draft, displayType, limits],
  );
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!enabled || !check || !check.ok) return;
    void send(check.value).then((ok) => ok && setDraft(''));
  };

  const select = useMemo(
    () => (
      <Select
        size="xs"
        w={90}
        aria-label={`${label} display type`}
        data={displayTypesFor(limits.type)}
        value={displayType}
        onChange={handleDisplayType}
        allowDeselect={false}
      />
    ),
    [label, limits.type, displayType, handleDisplayType],
  );
  const entry = useMemo(
    () =>
      settable && (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            size="xs"
            aria-label={label}
            value={draft}
            disabled={!enabled}
            error={error}
            onChange={(e) => setDraft(sanitizeNumberInput(e.currentTarget.value, displayType, limits.type))}
          />
          <Button size="xs" type="submit" disabled={!enabled || draft === '' || error !== null} loading={busy}>
            Send
          </Button>
        </Group>
      ),
    [settable, label, draft, enabled, error, displayType, limits.type, busy],
  );

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap={2}>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" data-testid={`value-${peripheral.name}-${prop.name}`}>
            {shown}
          </Text>
          {select}
        </Group>
        {entry}
        <FailedLine failed={failed} />
      </Stack>
    </form>
  );
}

function toHexColour(r: string, g: string, b: string): string {
  return `#${[r, g, b].map((c) => Math.max(0, Math.min(255, Number(c) || 0)).toString(16).padStart(2, '0')).join('')}`;
}

function LedControl({ hardwareId, peripheral, prop, enabled }: PropControlProps) {
  const type = prop.type as 'led' | 'addressable_led';
  const channels = ledChannels(type);
  const count = channels.length;
  const { send, busy, failed } = usePropSender(hardwareId, peripheral, prop);
  const current = splitLedValue(prop.value, count);
  const [draft, setDraft] = useState<string[]>(current);
  const currentKey = current.join(',');
  useEffect(() => {
    setDraft(currentKey.split(','));
  }, [currentKey]);
  const settable = prop.settable === 'true';
  const rgb = draft.slice(count - 3);
  const complete = isCompleteLedValue(draft, count);

  const setChannel = (index: number, text: string) => setDraft((d) => d.map((v, i) => (i === index ? text.replace(/\D/g, '').slice(0, 5) : v)));
  const setRgb = (colour: { r: number; g: number; b: number }) =>
    setDraft((d) => [...d.slice(0, count - 3), String(colour.r), String(colour.g), String(colour.b)]);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!enabled || !complete) return;
    void send(draft.map((v) => v.trim()).join(','));
  };

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap={4}>
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            Current: {orDash(prop.value)}
          </Text>
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 14,
              height: 14,
              borderRadius: 3,
              border: '1px solid var(--mantine-color-gray-4)',
              background: toHexColour(current[count - 3] ?? '', current[count - 2] ?? '', current[count - 1] ?? ''),
            }}
          />
        </Group>
        {settable && (
          <>
            <Group gap="xs" wrap="wrap">
              {channels.map((name, i) => (
                <TextInput
                  key={name}
                  size="xs"
                  w={80}
                  label={name}
                  aria-label={`${peripheral.name} ${prop.name} ${name}`}
                  value={draft[i] ?? ''}
                  disabled={!enabled}
                  onChange={(e) => setChannel(i, e.currentTarget.value)}
                />
              ))}
            </Group>
            {enabled && (
              <RgbColorPicker
                aria-label={`${peripheral.name} ${prop.name} colour`}
                color={{ r: Number(rgb[0]) || 0, g: Number(rgb[1]) || 0, b: Number(rgb[2]) || 0 }}
                onChange={setRgb}
                style={{ width: 180, height: 140 }}
              />
            )}
            <Group>
              <Button size="xs" type="submit" disabled={!enabled || !complete} loading={busy}>
                Send
              </Button>
            </Group>
          </>
        )}
        <FailedLine failed={failed} />
      </Stack>
    </form>
  );
}

/**
 * One prop of a peripheral, drawn by its type (spec 2.13): button blinker, toggle, trigger, text,
 * number types with a display type, LED types with their channels and a colour picker. Props not
 * settable are read-only; unknown types show their value.
 */
export const PropControl = memo(function PropControl(props: PropControlProps) {
  const { prop, peripheral } = props;
  let control;
  if (prop.type === 'button') control = <ButtonBlinker label={`${peripheral.name}-${prop.name}`} value={prop.value} pressCount={props.pressCount} />;
  else if (prop.type === 'toggle') control = <ToggleControl {...props} />;
  else if (prop.type === 'trigger') control = <TriggerControl {...props} />;
  else if (prop.type === 'text') control = <TextControl {...props} />;
  else if (isNumberProp(prop.type)) control = <NumberControl {...props} />;
  else if (isLedProp(prop.type)) control = <LedControl {...props} />;
  else control = <Text size="sm">{orDash(prop.value)}</Text>;
  return (
    <Group gap="md" align="flex-start" wrap="nowrap" data-testid={`prop-${peripheral.name}-${prop.name}`}>
      <Text size="sm" fw={500} w={110} style={{ flexShrink: 0, overflowWrap: 'anywhere' }}>
        {prop.name}
      </Text>
      <div style={{ minWidth: 0 }}>{control}</div>
    </Group>
  );
});
