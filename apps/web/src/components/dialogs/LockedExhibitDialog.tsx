import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';

/** An exhibit whose locked manifest blocks a deletion. */
export type LockedExhibit = { id: string; name: string };

export type LockedExhibitDialogProps = {
  opened: boolean;
  onClose: () => void;
  itemType: 'organization' | 'site' | 'exhibit';
  lockedExhibits: LockedExhibit[];
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

/**
 * The locked exhibits named by a 409 LockedExhibits answer, or null for any other error, so a
 * delete that the server refused can open this dialog instead of an error line.
 */
export function lockedExhibitsFromError(error: unknown): LockedExhibit[] | null {
  const body = (error as { body?: unknown } | null)?.body as { code?: unknown; details?: { lockedExhibits?: unknown } } | null | undefined;
  if (!body || body.code !== 'LockedExhibits') return null;
  const list = body.details?.lockedExhibits;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is LockedExhibit => typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.name === 'string',
  );
}
