import { Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DEFAULT_ROLE, normalizeEmail, ROLE_OPTIONS, toLowerRole, type LowerRole } from '@plinth/shared';
import type { MutationState } from '../lib/mutation-state';
import { FormDialog, type DialogProps } from './dialogs/FormDialog';

type AddUserValues = { email: string; role: LowerRole };

export type UsersListAddDialogProps = DialogProps & {
  /** 'organization', 'site' or 'exhibit', for the dialog text. */
  scope: string;
  /** Adds the user (email lowercased); the dialog closes when it resolves. */
  onSubmit: (email: string, role: LowerRole) => Promise<unknown>;
  /** The write's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/**
 * The Add Users dialog: an email (lowercased before sending) and a role, viewer by default.
 * Add is disabled while the email is empty; the browser's own check of an email field catches a
 * malformed one, and the server answers the rest. A new email gets an invitation mail from the server.
 */
export function UsersListAddDialog({ opened, onClose, scope, onSubmit, mutation }: UsersListAddDialogProps) {
  const form = useForm<AddUserValues>({
    initialValues: { email: '', role: toLowerRole(DEFAULT_ROLE) },
    validate: { email: (value) => (normalizeEmail(value) ? null : 'Email is required') },
  });

  const handleRoleChange = (value: string | null) => {
    const role = ROLE_OPTIONS.find((o) => o.value === value)?.value;
    if (role) form.setFieldValue('role', role);
  };

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Add Users"
      onSubmit={() => onSubmit(normalizeEmail(form.values.email), form.values.role)}
      mutation={mutation}
      confirmLabel="Add"
      isConfirmDisabled={!form.isValid()}
      errorFallback="Could not add the user."
      onOpen={form.reset}
    >
      <Text size="sm">
        Give a person access to this {scope}. If the email has no Plinth account yet, an invitation to create one is mailed to it.
      </Text>
      <TextInput label="Email" type="email" {...form.getInputProps('email', { withError: false })} data-autofocus required />
      <Select
        label="Role"
        data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
        value={form.values.role}
        onChange={handleRoleChange}
        allowDeselect={false}
      />
    </FormDialog>
  );
}
