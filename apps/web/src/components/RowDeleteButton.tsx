import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

export type RowDeleteButtonProps = {
  /** The tooltip ('Delete token'). */
  tooltip: string;
  /** The accessible name, naming the row ('Delete token Kiosk PC'). */
  label: string;
  onClick: () => void;
};

/** The red trash icon that deletes (or revokes) one row of a table, after its own confirmation. */
export function RowDeleteButton({ tooltip, label, onClick }: RowDeleteButtonProps) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
