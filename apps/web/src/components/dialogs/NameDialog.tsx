import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { MAX_NAME_LENGTH, Name } from '@plinth/shared';
import type { MutationState } from '../../lib/mutation-state';
import { schemaResolver } from '../../lib/schema-resolver';
import { resetForm } from '../../lib/reset-form';
import { FormDialog, type DialogProps } from './FormDialog';

/** A name as the server takes it (shared `Name`: trimmed, 1 to 200 characters). */
const NameFormSchema = z.object({ name: Name });

export type NameDialogProps = DialogProps & {
  title: string;
  label: string;
  placeholder?: string;
  initialValue?: string;
  confirmLabel: string;
  /** Edit dialogs: Save stays disabled while the name is unchanged. */
  requireChange?: boolean;
  /** Cleans the typed value before it is checked and sent (setting-list names strip quotes and slashes). */
  transform?: (value: string) => string;
  /** Runs the write with the cleaned name; the dialog closes when it resolves. */
  onSubmit: (name: string) => Promise<unknown>;
  /** The write's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
  /** Shown when the error has no message of its own. */
  errorFallback?: string;
  children?: ReactNode;
};

/** Create and rename dialogs: Enter confirms, Escape closes, the button is disabled while the name is empty. */
export function NameDialog(props: NameDialogProps) {
  const { opened, onClose, title, label, placeholder, initialValue = '', confirmLabel, requireChange, transform, onSubmit, mutation } = props;
  const form = useForm({
    initialValues: { name: initialValue },
    transformValues: ({ name }) => ({ name: (transform ? transform(name) : name).trim() }),
    validate: (values) => schemaResolver<{ name: string }>(NameFormSchema)({ name: transform ? transform(values.name) : values.name }),
  });

  const cleaned = form.getTransformedValues().name;
  const isUnchanged = requireChange === true && cleaned === initialValue.trim();

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      onSubmit={() => onSubmit(cleaned)}
      mutation={mutation}
      confirmLabel={confirmLabel}
      isConfirmDisabled={!form.isValid() || isUnchanged}
      errorFallback={props.errorFallback}
      onOpen={() => resetForm(form, { name: initialValue })}
    >
      <TextInput
        label={label}
        placeholder={placeholder}
        {...form.getInputProps('name', { withError: false })}
        data-autofocus
        maxLength={MAX_NAME_LENGTH}
      />
      {props.children}
    </FormDialog>
  );
}
