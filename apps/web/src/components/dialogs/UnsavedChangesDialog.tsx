import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useClickGuard } from '../useClickGuard';

export const UNSAVED_CHANGES_MESSAGE =
  'You have unsaved changes you will lose if you proceed. Are you sure you want to proceed and revert to the saved values?';

/**
 * The unsaved-changes confirmation: title Warning, buttons Cancel and Proceed. Exactly one of
 * onCancel (Cancel, Escape, close) and onProceed (Proceed, Enter) runs per answer.
 */
export function UnsavedChangesDialog({ opened, onCancel, onProceed }: { opened: boolean; onCancel: () => void; onProceed: () => void }) {
  const proceed = useClickGuard(() => onProceed());
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    proceed();
  };
  return (
    <Modal opened={opened} onClose={onCancel} title="Warning" centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <Text>{UNSAVED_CHANGES_MESSAGE}</Text>
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" data-autofocus>
              Proceed
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
