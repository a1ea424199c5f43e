import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconChevronRight, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { stripQuotesAndSlashes, type SettingList } from '@plinth/shared';
import { ConfirmDialog } from '../../../../components/dialogs/ConfirmDialog';
import { NameDialog } from '../../../../components/dialogs/NameDialog';

export type SettingListViewProps = {
  list: SettingList;
  /** Items may be created, copied, reordered and deleted (not a follower, write right, op mode). */
  canChange: boolean;
  onOpen: (listName: string) => void;
  onCreate: (listName: string) => Promise<void>;
  onCopy: (listName: string, sourceName: string) => Promise<void>;
  onMove: (order: string[]) => Promise<void>;
  onDelete: (listName: string) => Promise<void>;
};

/**
 * The items of a setting list: open one to edit its values; create, copy (a modal asking for the
 * new name: required, double quotes and slashes stripped), reorder and delete them.
 */
export function SettingListView({ list, canChange, onOpen, onCreate, onCopy, onMove, onDelete }: SettingListViewProps) {
  const [copyFrom, setCopyFrom] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const items = [...list.settinglistitems].sort((a, b) => a.order - b.order);
  const names = items.map((i) => i.listName);

  const move = (index: number, delta: number) => {
    const order = [...names];
    const [name] = order.splice(index, 1);
    order.splice(index + delta, 0, name!);
    setMoveError(null);
    onMove(order).catch((e: unknown) => setMoveError(e instanceof Error ? e.message : 'The items could not be reordered.'));
  };

  return (
    <Stack gap="xs">
      {items.length === 0 && <Text c="dimmed">This list has no items.</Text>}
      {moveError && (
        <Text c="red" size="sm" role="alert">
          {moveError}
        </Text>
      )}
      {items.map((item, index) => (
        <Paper key={item.listName} withBorder p="xs">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Button variant="subtle" rightSection={<IconChevronRight size={16} />} onClick={() => onOpen(item.listName)}>
                {item.listName}
              </Button>
              {item.applied ? (
                <Badge color="teal" variant="light" size="sm">
                  Applied
                </Badge>
              ) : (
                <Badge color="yellow" variant="light" size="sm">
                  Not applied yet
                </Badge>
              )}
            </Group>
            {canChange && (
              <Group gap={4} wrap="nowrap">
                <Tooltip label="Move up">
                  <ActionIcon variant="subtle" aria-label={`Move ${item.listName} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                    <IconArrowUp size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Move down">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move ${item.listName} down`}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Copy">
                  <ActionIcon variant="subtle" aria-label={`Copy ${item.listName}`} onClick={() => setCopyFrom(item.listName)}>
                    <IconCopy size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Delete">
                  <ActionIcon variant="subtle" color="red" aria-label={`Delete ${item.listName}`} onClick={() => setDeleting(item.listName)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        </Paper>
      ))}
      {canChange && (
        <Group>
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New item
          </Button>
        </Group>
      )}
      <NameDialog
        opened={copyFrom !== null}
        onClose={() => setCopyFrom(null)}
        title={`Copy ${copyFrom ?? ''}`}
        label="Name"
        placeholder="Name of the new item"
        confirmLabel="Create"
        transform={stripQuotesAndSlashes}
        onSubmit={(name) => onCopy(name, copyFrom!)}
      />
      <NameDialog
        opened={creating}
        onClose={() => setCreating(false)}
        title={`New item in ${list.listDisplay}`}
        label="Name"
        confirmLabel="Create"
        transform={stripQuotesAndSlashes}
        onSubmit={onCreate}
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete item"
        message={`Delete the item ${deleting ?? ''} of ${list.listDisplay}?`}
        confirmLabel="Delete"
        cancelLabel="Cancel"
        danger
        onConfirm={() => onDelete(deleting!)}
      />
    </Stack>
  );
}
