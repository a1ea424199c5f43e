import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** What the user may answer: apply (or delete) this occurrence only, or every future one of its series. */
export type ScheduleScope = 'one' | 'all';

export type ScheduleChoiceDialogProps = {
  opened: boolean;
  title: string;
  message: string;
  /** The answers offered, in order (a series-wide change offers only 'all'). */
  scopes: ScheduleScope[];
  /** Labels the answers when they are not 'This event' / 'All events' (a single event's delete: 'Delete'). */
  labels?: Partial<Record<ScheduleScope, string>>;
  danger?: boolean;
  isPending: boolean;
  onChoose: (scope: ScheduleScope) => void;
  onCancel: () => void;
};

const DEFAULT_LABELS: Record<ScheduleScope, string> = { one: 'This event', all: 'All events' };

/** The question asked before a series occurrence is saved, moved or deleted: this event, all events, or Cancel. */
export function ScheduleChoiceDialog({ opened, title, message, scopes, labels, danger, isPending, onChoose, onCancel }: ScheduleChoiceDialogProps) {
  return (
    <Modal opened={opened} onClose={() => !isPending && onCancel()} title={title} centered zIndex={310}>
      <Stack gap="md">
        <Text>{message}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          {scopes.map((scope) => (
            <Button key={scope} color={danger ? 'red' : undefined} loading={isPending} onClick={() => onChoose(scope)}>
              {labels?.[scope] ?? DEFAULT_LABELS[scope]}
            </Button>
          ))}
        </Group>
      </Stack>
    </Modal>
  );
}
