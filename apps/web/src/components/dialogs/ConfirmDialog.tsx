import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useClickGuard } from '../useClickGuard';
import { DialogError } from './DialogError';

export type ConfirmDialogProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => Promise<void> | void;
};

/** A yes/no confirmation: Enter confirms, Escape closes. */
export function ConfirmDialog({ opened, onClose, title, message, confirmLabel = 'Yes', cancelLabel = 'No', danger, onConfirm }: ConfirmDialogProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const confirm = useClickGuard(() => {
    setBusy(true);
    Promise.resolve(onConfirm())
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Something went wrong.'))
      .finally(() => setBusy(false));
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          {typeof message === 'string' ? <Text>{message}</Text> : message}
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} loading={busy} data-autofocus>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
