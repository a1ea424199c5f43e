import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useClickGuard } from '../useClickGuard';
import { DialogError } from './DialogError';

export type NameDialogProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  label: string;
  placeholder?: string;
  initialValue?: string;
  confirmLabel: string;
  /** Edit dialogs: Save stays disabled while the name is unchanged. */
  requireChange?: boolean;
  /** Cleans the typed value before it is sent (setting-list names strip quotes and slashes). */
  transform?: (value: string) => string;
  /** Runs the call; a thrown error's message is shown in the dialog. */
  onSubmit: (name: string) => Promise<void>;
  /** Shown when the error has no message of its own. */
  errorFallback?: string;
  children?: ReactNode;
};

/** Create and rename dialogs: Enter confirms, Escape closes, the button is disabled while the name is empty. */
export function NameDialog(props: NameDialogProps) {
  const { opened, onClose, title, label, placeholder, initialValue = '', confirmLabel, requireChange, transform, onSubmit, errorFallback, children } = props;
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) {
      setValue(initialValue);
      setError(null);
      setBusy(false);
    }
  }, [opened, initialValue]);

  const cleaned = (transform ? transform(value) : value).trim();
  const disabled = busy || cleaned.length === 0 || (requireChange === true && cleaned === initialValue.trim());

  const submit = useClickGuard(() => {
    if (disabled) return;
    setBusy(true);
    setError(null);
    onSubmit(cleaned)
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : (errorFallback ?? 'Something went wrong.')))
      .finally(() => setBusy(false));
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput
            label={label}
            placeholder={placeholder}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            data-autofocus
            maxLength={200}
          />
          {children}
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} type="button">
              Cancel
            </Button>
            <Button type="submit" disabled={disabled} loading={busy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
