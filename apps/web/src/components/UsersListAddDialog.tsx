import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_ROLE, normalizeEmail, ROLE_OPTIONS, toLowerRole, type LowerRole } from '@plinth/shared';
import { useClickGuard } from './useClickGuard';
import { DialogError } from './dialogs/DialogError';

export type UsersListAddDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** 'organization', 'site' or 'exhibit', for the dialog text. */
  scope: string;
  /** Adds the user; a thrown error's message is shown in the dialog. */
  onSubmit: (email: string, role: LowerRole) => Promise<void>;
};

/**
 * The Add Users dialog: an email (lowercased before sending) and a role, viewer by default.
 * A new email gets an invitation mail from the server.
 */
export function UsersListAddDialog({ opened, onClose, scope, onSubmit }: UsersListAddDialogProps) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<LowerRole>(toLowerRole(DEFAULT_ROLE));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) {
      setEmail('');
      setRole(toLowerRole(DEFAULT_ROLE));
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const normalized = normalizeEmail(email);
  const disabled = busy || normalized.length === 0;

  const submit = useClickGuard(() => {
    if (disabled) return;
    setBusy(true);
    setError(null);
    onSubmit(normalized, role)
      .then(() => onClose())
      .catch((e: unknown) => setError(e instanceof Error && e.message ? e.message : 'Could not add the user.'))
      .finally(() => setBusy(false));
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Add Users" centered>
      <form onSubmit={handleSubmit}>
        <Stack>
          <Text size="sm">
            Give a person access to this {scope}. If the email has no Plinth account yet, an invitation to create one is
            mailed to it.
          </Text>
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-autofocus
            required
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
            value={role}
            onChange={(value) => setRole(ROLE_OPTIONS.find((o) => o.value === value)?.value ?? role)}
            allowDeselect={false}
          />
          <DialogError message={error} />
          <Group justify="flex-end">
            <Button variant="default" type="button" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={disabled} loading={busy}>
              Add
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
