import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useClickGuard } from '../useClickGuard';
import { DialogError } from './DialogError';

export type TypeToDeleteDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** 'organization', 'site', 'exhibit', 'hardware'. */
  itemType: string;
  itemName: string;
  onConfirm: () => Promise<void>;
};

/** Delete confirmation that requires typing the exact name of the item. */
export function TypeToDeleteDialog({ opened, onClose, itemType, itemName, onConfirm }: TypeToDeleteDialogProps) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setTyped('');
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const matches = typed === itemName;
  const confirm = useClickGuard(() => {
    if (!matches) return;
    setBusy(true);
    onConfirm()
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error ? e.message : `Could not delete the ${itemType}.`))
      .finally(() => setBusy(false));
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Delete ${itemType}`} centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <Text>
            This permanently deletes the {itemType} <strong>{itemName}</strong>
            {itemType === 'organization' || itemType === 'site' ? ' and everything in it' : ''}. Type its name to confirm.
          </Text>
          <TextInput
            aria-label={`Type ${itemName} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            data-autofocus
          />
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={busy}>
              Delete
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
