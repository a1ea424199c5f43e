import { Checkbox } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Hardware } from '@plinth/shared';
import { DeviceChoiceList } from '../../../components/DeviceChoiceList';
import type { GatedQuery } from '../../../components/QueryGate';
import { FormDialog, type DialogProps } from '../../../components/dialogs/FormDialog';
import { resetForm } from '../../../lib/reset-form';
import type { MutationState } from '../../../lib/mutation-state';
import type { HardwareConnectionChange } from '../api/update-hardware-connections';

export type ConnectHardwareDialogProps = DialogProps & {
  exhibitId: string;
  /** The read of the site's hardware the caller may see. */
  hardware: GatedQuery<Hardware[]>;
  /** Connects the added hardware and disconnects the removed ones; the dialog closes when it resolves. */
  onUpdate: (change: HardwareConnectionChange) => Promise<unknown>;
  /** The update's state: busy while pending, its error shown in the dialog. */
  mutation: MutationState;
};

/**
 * The 'Connect to Hardware' modal (spec 2.6): the site's hardware with online indicators, the
 * connected ones ticked; Update is enabled only when the selection changed.
 */
export function ConnectHardwareDialog({ opened, onClose, exhibitId, hardware, onUpdate, mutation }: ConnectHardwareDialogProps) {
  const initial = (hardware.data ?? []).filter((h) => h.exhibitId === exhibitId).map((h) => h.id);
  const form = useForm<{ selected: string[] }>({ initialValues: { selected: initial } });
  const selected = form.values.selected;
  const connect = selected.filter((id) => !initial.includes(id));
  const disconnect = initial.filter((id) => !selected.includes(id));
  const isChanged = connect.length > 0 || disconnect.length > 0;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Connect to Hardware"
      onSubmit={() => onUpdate({ connect, disconnect })}
      mutation={mutation}
      confirmLabel="Update"
      isConfirmDisabled={!isChanged}
      errorFallback="Could not update the connected hardware."
      onOpen={() => resetForm(form, { selected: initial })}
    >
      <DeviceChoiceList
        devices={hardware}
        loadingLabel="Loading hardware"
        failedText="The hardware of this site cannot be shown right now."
        emptyText="No hardware available."
        group={(choices) => (
          <Checkbox.Group {...form.getInputProps('selected')} aria-label="Hardware">
            {choices}
          </Checkbox.Group>
        )}
        renderChoice={(h) => <Checkbox value={h.id} label={h.name} />}
      />
    </FormDialog>
  );
}
