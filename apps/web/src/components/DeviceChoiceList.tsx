import { Group, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { OnlineBadge } from './OnlineBadge';

/** What a connect dialog lists of a device. */
export type DeviceChoice = { id: string; name: string; online: boolean };

export type DeviceChoiceListProps<T extends DeviceChoice> = {
  devices: T[];
  isLoading?: boolean;
  /** The loader's accessible name ('Loading hardware'). */
  loadingLabel: string;
  /** Shown when there is no device to choose ('No hardware available.'). */
  emptyText: string;
  /** The Checkbox.Group or Radio.Group that holds the choices and their value. */
  group: (choices: ReactNode) => ReactNode;
  /** The checkbox or radio of one device. */
  renderChoice: (device: T) => ReactNode;
};

/** The devices of a connect dialog by name, each with its online badge, in a scrolling box; a loader or the empty text instead. */
export function DeviceChoiceList<T extends DeviceChoice>({ devices, isLoading, loadingLabel, emptyText, group, renderChoice }: DeviceChoiceListProps<T>) {
  if (isLoading) return <Loader aria-label={loadingLabel} />;
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
