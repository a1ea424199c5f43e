import { Group, ScrollArea, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { OnlineBadge } from './OnlineBadge';
import { QueryGate, type GatedQuery } from './QueryGate';

/** What a connect dialog lists of a device. */
export type DeviceChoice = { id: string; name: string; online: boolean };

export type DeviceChoiceListProps<T extends DeviceChoice> = {
  /** The read of the devices to choose from. */
  devices: GatedQuery<T[]>;
  /** The loader's accessible name ('Loading hardware'). */
  loadingLabel: string;
  /** Said when the devices cannot be read ('The hardware of this site cannot be shown right now.'). */
  failedText: string;
  /** Shown when there is no device to choose ('No hardware available.'). */
  emptyText: string;
  /** The Checkbox.Group or Radio.Group that holds the choices and their value. */
  group: (choices: ReactNode) => ReactNode;
  /** The checkbox or radio of one device. */
  renderChoice: (device: T) => ReactNode;
};

/**
 * The devices of a connect dialog by name, each with its online badge, in a scrolling box; a
 * loader, the failure (with Retry) or the empty text instead.
 */
export function DeviceChoiceList<T extends DeviceChoice>(props: DeviceChoiceListProps<T>) {
  const { devices, loadingLabel, failedText } = props;
  return (
    <QueryGate query={devices} loading={loadingLabel} failed={failedText}>
      {(list) => <Choices {...props} list={list} />}
    </QueryGate>
  );
}

function Choices<T extends DeviceChoice>({ list: devices, emptyText, group, renderChoice }: DeviceChoiceListProps<T> & { list: T[] }) {
  if (devices.length === 0) return <Text c="dimmed">{emptyText}</Text>;
  const sorted = [...devices].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <ScrollArea.Autosize mah={320}>
      {group(
        <Stack gap="xs">
          {sorted.map((device) => (
            <Group key={device.id} justify="space-between" wrap="nowrap">
              {renderChoice(device)}
              <OnlineBadge online={device.online} size="sm" />
            </Group>
          ))}
        </Stack>,
      )}
    </ScrollArea.Autosize>
  );
}
