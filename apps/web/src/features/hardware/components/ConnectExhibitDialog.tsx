import { Radio } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Exhibit } from '@plinth/shared';
import { DeviceChoiceList } from '../../../components/DeviceChoiceList';
import type { GatedQuery } from '../../../components/QueryGate';
import { FormDialog, type DialogProps } from '../../../components/dialogs/FormDialog';
import { resetForm } from '../../../lib/reset-form';
import type { MutationState } from '../../../lib/mutation-state';

export type ConnectExhibitDialogProps = DialogProps & {
  /** The read of the site's exhibits the caller may see. */
  exhibits: GatedQuery<Exhibit[]>;
  /** The exhibit the hardware is connected to now, preselected when editing. */
  currentExhibitId: string | null;
  /** Connects the hardware; the dialog closes when it resolves. */
  onConnect: (exhibitId: string) => Promise<unknown>;
  /** The connection's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/** Connect to Exhibit (spec 2.13): the site's exhibits with their online state; Connect needs a selection. */
export function ConnectExhibitDialog({ opened, onClose, exhibits, currentExhibitId, onConnect, mutation }: ConnectExhibitDialogProps) {
  const form = useForm<{ exhibitId: string }>({ initialValues: { exhibitId: currentExhibitId ?? '' } });
  const selected = form.values.exhibitId;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Connect to Exhibit"
      onSubmit={() => onConnect(selected)}
      mutation={mutation}
      confirmLabel="Connect"
      isConfirmDisabled={!selected}
      errorFallback="Could not connect to the exhibit."
      onOpen={() => resetForm(form, { exhibitId: currentExhibitId ?? '' })}
    >
      <DeviceChoiceList
        devices={exhibits}
        loadingLabel="Loading exhibits"
        failedText="The exhibits of this site cannot be shown right now."
        emptyText="No exhibits available."
        group={(choices) => (
          <Radio.Group {...form.getInputProps('exhibitId')} aria-label="Exhibits">
            {choices}
          </Radio.Group>
        )}
        renderChoice={(exhibit) => <Radio value={exhibit.id} label={exhibit.name} />}
      />
    </FormDialog>
  );
}
