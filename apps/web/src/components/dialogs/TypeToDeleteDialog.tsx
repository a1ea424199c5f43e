import { Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MutationState } from '../../lib/mutation-state';
import { FormDialog, type DialogProps } from './FormDialog';

export type TypeToDeleteDialogProps = DialogProps & {
  /** 'organization', 'site', 'exhibit', 'hardware'. */
  itemType: string;
  itemName: string;
  /** Runs the deletion; the dialog closes when it resolves. */
  onConfirm: () => Promise<unknown>;
  /** The deletion's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/** Delete confirmation that requires typing the exact name of the item. */
export function TypeToDeleteDialog({ opened, onClose, itemType, itemName, onConfirm, mutation }: TypeToDeleteDialogProps) {
  const form = useForm({ initialValues: { typed: '' } });
  const matches = form.values.typed === itemName;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={`Delete ${itemType}`}
      onSubmit={onConfirm}
      mutation={mutation}
      confirmLabel="Delete"
      confirmColor="red"
      isConfirmDisabled={!matches}
      errorFallback={`Could not delete the ${itemType}.`}
      onOpen={form.reset}
    >
      <Text>
        This permanently deletes the {itemType} <strong>{itemName}</strong>
        {itemType === 'organization' || itemType === 'site' ? ' and everything in it' : ''}. Type its name to confirm.
      </Text>
      <TextInput aria-label={`Type ${itemName} to confirm`} {...form.getInputProps('typed')} data-autofocus />
    </FormDialog>
  );
}
