import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';

export type LockedExhibitDialogProps = {
  opened: boolean;
  onClose: () => void;
  itemType: 'organization' | 'site' | 'exhibit';
  lockedExhibits: { id: string; name: string }[];
};

/** Shown instead of the delete confirmation when locked exhibits block the deletion. */
export function LockedExhibitDialog({ opened, onClose, itemType, lockedExhibits }: LockedExhibitDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Cannot Delete ${itemType}`} centered>
      <Stack>
        <Text>
          {itemType === 'exhibit'
            ? 'This exhibit cannot be deleted because it is locked.'
            : `This ${itemType} cannot be deleted because it contains locked exhibits.`}
        </Text>
        {itemType !== 'exhibit' && lockedExhibits.length > 0 && (
          <List>
            {lockedExhibits.map((e) => (
              <List.Item key={e.id}>{e.name}</List.Item>
            ))}
          </List>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            OK
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
