import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateExhibitBody, MAX_NAME_LENGTH } from '@plinth/shared';
import type { MutationState } from '../lib/mutation-state';
import { schemaResolver } from '../lib/schema-resolver';
import { FormDialog, type DialogProps } from './dialogs/FormDialog';

/** The dialog's fields, checked as the server checks a new exhibit (name required, MQTT address valid). */
const CreateExhibitFormSchema = CreateExhibitBody.pick({ name: true, mqttPath: true });

type CreateExhibitValues = { name: string; mqttPath: string };

export type CreateExhibitDialogProps = DialogProps & {
  /** Creates the exhibit (and sets its MQTT address when one was given); the dialog closes when it resolves. */
  onSubmit: (name: string, mqttPath: string) => Promise<unknown>;
  /** The creation's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

const EMPTY: CreateExhibitValues = { name: '', mqttPath: '' };

/**
 * Create Exhibit: a name and an optional 'MQTT IP Address' (empty, '{ip}:0' or ip:port), whose
 * message shows as it is typed. Create is disabled while the name is empty or the address is invalid.
 */
export function CreateExhibitDialog({ opened, onClose, onSubmit, mutation }: CreateExhibitDialogProps) {
  const form = useForm<CreateExhibitValues>({
    initialValues: EMPTY,
    validate: schemaResolver(CreateExhibitFormSchema),
    validateInputOnChange: ['mqttPath'],
  });

  const handleSubmit = () => {
    const { name, mqttPath } = form.getValues();
    return onSubmit(name.trim(), mqttPath.trim());
  };

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Create Exhibit"
      onSubmit={handleSubmit}
      mutation={mutation}
      confirmLabel="Create"
      isConfirmDisabled={!form.isValid()}
      errorFallback="Error: Could not create Exhibit"
      onOpen={form.reset}
    >
      <TextInput label="Name" {...form.getInputProps('name', { withError: false })} data-autofocus maxLength={MAX_NAME_LENGTH} />
      <TextInput label="MQTT IP Address" placeholder="###.###.###.###:####" {...form.getInputProps('mqttPath')} />
    </FormDialog>
  );
}
