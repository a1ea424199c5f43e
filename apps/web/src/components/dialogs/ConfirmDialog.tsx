import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MutationState } from '../../lib/mutation-state';
import { FormDialog, type DialogProps } from './FormDialog';

export type ConfirmDialogProps = DialogProps & {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  /** Runs the write; the dialog closes when it resolves. */
  onConfirm: () => Promise<unknown>;
  /** The write's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/** A yes/no confirmation: Enter confirms, Escape closes. */
export function ConfirmDialog({ opened, onClose, title, message, confirmLabel = 'Yes', cancelLabel = 'No', danger, onConfirm, mutation }: ConfirmDialogProps) {
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      onSubmit={onConfirm}
      mutation={mutation}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      confirmColor={danger ? 'red' : undefined}
      isConfirmFocused
    >
      {typeof message === 'string' ? <Text>{message}</Text> : message}
    </FormDialog>
  );
}
