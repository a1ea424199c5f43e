import { Button, Group, Select, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { DEFAULT_ROLE, normalizeEmail, ROLE_OPTIONS, toLowerRole, type LowerRole } from '@plinth/shared';
import { useCreateExhibitUser } from '../../api/create-exhibit-user';
import { addUserErrorText } from '../../lib/add-user-error';

/**
 * Add User (spec 2.10): an email and a role (Viewer by default). Add User is disabled while the
 * email is empty; a failure shows under the email (spec 8).
 */
export function AddExhibitUserForm({ exhibitId }: { exhibitId: string }) {
  const create = useCreateExhibitUser();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<LowerRole>(toLowerRole(DEFAULT_ROLE));
  const normalized = normalizeEmail(email);

  const handleEmailChange = (value: string) => {
    if (create.error) create.reset();
    setEmail(value);
  };

  const handleRoleChange = (value: string | null) => {
    const picked = ROLE_OPTIONS.find((o) => o.value === value)?.value;
    if (picked) setRole(picked);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!normalized || create.isPending) return;
    create.mutateAsync({ exhibitId, email: normalized, role }).then(
      () => {
        setEmail('');
        notifications.show({
          color: 'teal',
          message: `${normalized} was added to this exhibit.`,
        });
      },
      (e: unknown) => console.error('Add exhibit user failed', e),
    );
  };

  return (
    <form onSubmit={handleSubmit} aria-label="Add a user">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Email"
          type="email"
          value={email}
          onChange={(e) => handleEmailChange(e.currentTarget.value)}
          error={create.error ? addUserErrorText(create.error) : null}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Select
          label="Role"
          data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          value={role}
          onChange={handleRoleChange}
          allowDeselect={false}
          w={140}
        />
        <Button type="submit" mt={25} disabled={!normalized} loading={create.isPending}>
          Add User
        </Button>
      </Group>
    </form>
  );
}
