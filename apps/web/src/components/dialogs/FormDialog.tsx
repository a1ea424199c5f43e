import { Button, Group, Modal, Stack, type MantineColor, type ModalProps } from '@mantine/core';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { errorText, type MutationState } from '../../lib/mutation-state';
import { useClickGuard } from '../useClickGuard';
import { DialogError } from './DialogError';

/** What every dialog is given: whether it shows, and how to close it (Cancel, Escape, after its write). */
export type DialogProps = { opened: boolean; onClose: () => void };

export type FormDialogProps = DialogProps & {
  title: string;
  /** Runs the write; the dialog closes when it resolves and shows `mutation.error` when it rejects. */
  onSubmit: () => Promise<unknown>;
  /** The write's state: the confirm button spins while it is pending, its error shows above the buttons. */
  mutation: MutationState;
  confirmLabel: string;
  cancelLabel?: string;
  confirmColor?: MantineColor;
  /** Confirm (button and Enter) does nothing while true: an empty or invalid field. */
  isConfirmDisabled?: boolean;
  /** Shown when the error has no message of its own. */
  errorFallback?: string;
  /** A message of the form itself (a validation rule the spec words), shown instead of the write's error. */
  formError?: string | null;
  /** Focus the confirm button on open (yes/no dialogs); otherwise the first field with `data-autofocus` gets it. */
  isConfirmFocused?: boolean;
  /** Runs each time the dialog opens, to put its fields back to their first values. */
  onOpen?: () => void;
  size?: ModalProps['size'];
  children?: ReactNode;
};

/**
 * The frame of every dialog that runs one write (spec, shared dialogs): Enter confirms, Escape
 * closes, a confirm click within one second of the last one is ignored, the confirm button spins
 * while the mutation is pending, and the mutation's error shows as text. Opening it again clears
 * the last error and the fields.
 */
export function FormDialog(props: FormDialogProps) {
  const { opened, onClose, title, onSubmit, mutation, confirmLabel, cancelLabel = 'Cancel', confirmColor, isConfirmDisabled = false } = props;
  const { errorFallback = 'Something went wrong.', formError, isConfirmFocused, onOpen, size, children } = props;
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  const resetRef = useRef(mutation.reset);
  resetRef.current = mutation.reset;

  useEffect(() => {
    if (!opened) return;
    resetRef.current?.();
    onOpenRef.current?.();
  }, [opened]);

  const isBlocked = isConfirmDisabled || mutation.isPending;
  const confirm = useClickGuard(() => {
    if (isBlocked) return;
    // A rejection needs no handling here: the mutation holds the error, and the dialog shows it.
    onSubmit().then(onClose, () => undefined);
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };

  const message = formError ?? (mutation.error ? errorText(mutation.error, errorFallback) : null);
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          {children}
          <DialogError message={message} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button
              type="submit"
              color={confirmColor}
              disabled={isConfirmDisabled}
              loading={mutation.isPending}
              data-autofocus={isConfirmFocused || undefined}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
