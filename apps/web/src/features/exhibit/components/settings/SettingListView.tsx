import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconChevronRight, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { stripQuotesAndSlashes, type SettingList } from '@plinth/shared';
import { ConfirmDialog } from '../../../../components/dialogs/ConfirmDialog';
import { NameDialog } from '../../../../components/dialogs/NameDialog';
import { errorText } from '../../../../lib/mutation-state';
import { useCopyListItem } from '../../api/copy-list-item';
import { useCreateListItem } from '../../api/create-list-item';
import { useDeleteListItem } from '../../api/delete-list-item';
import { useOrderListItems } from '../../api/order-list-items';

export type SettingListViewProps = {
  exhibitId: string;
  list: SettingList;
  /** Items may be created, copied, reordered and deleted (not a follower, write right, op mode). */
  canChange: boolean;
  onOpen: (listName: string) => void;
};

/**
 * The items of a setting list: open one to edit its values; create, copy (a modal asking for the
 * new name: required, double quotes and slashes stripped), reorder and delete them.
 */
export function SettingListView({ exhibitId, list, canChange, onOpen }: SettingListViewProps) {
  const create = useCreateListItem(exhibitId, list.manifestId);
  const copy = useCopyListItem(exhibitId, list.manifestId);
  const order = useOrderListItems(exhibitId, list.manifestId);
  const remove = useDeleteListItem(exhibitId, list.manifestId);
  const [copyFrom, setCopyFrom] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const items = [...list.settinglistitems].sort((a, b) => a.order - b.order);
  const names = items.map((i) => i.listName);

  const move = (index: number, delta: number) => {
    const next = [...names];
    const [name] = next.splice(index, 1);
    next.splice(index + delta, 0, name!);
    order.mutate(next);
  };

  return (
    <Stack gap="xs">
      {items.length === 0 && <Text c="dimmed">This list has no items.</Text>}
      {order.error && (
        <Text c="red" size="sm" role="alert">
          {errorText(order.error, 'The items could not be reordered.')}
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
        onSubmit={(name) => copy.mutateAsync({ listName: name, sourceName: copyFrom! })}
        mutation={copy}
      />
      <NameDialog
        opened={creating}
        onClose={() => setCreating(false)}
        title={`New item in ${list.listDisplay}`}
        label="Name"
        confirmLabel="Create"
        transform={stripQuotesAndSlashes}
        onSubmit={create.mutateAsync}
        mutation={create}
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete item"
        message={`Delete the item ${deleting ?? ''} of ${list.listDisplay}?`}
        confirmLabel="Delete"
        cancelLabel="Cancel"
        danger
        onConfirm={() => remove.mutateAsync(deleting!)}
        mutation={remove}
      />
    </Stack>
  );
}
