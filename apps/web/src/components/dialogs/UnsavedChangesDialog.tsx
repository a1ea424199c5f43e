import { ConfirmDialog } from './ConfirmDialog';

export const UNSAVED_CHANGES_MESSAGE =
  'You have unsaved changes you will lose if you proceed. Are you sure you want to proceed and revert to the saved values?';

/** The unsaved-changes confirmation: title Warning, buttons Cancel and Proceed. */
export function UnsavedChangesDialog({ opened, onCancel, onProceed }: { opened: boolean; onCancel: () => void; onProceed: () => void }) {
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onCancel}
      title="Warning"
      message={UNSAVED_CHANGES_MESSAGE}
      confirmLabel="Proceed"
      cancelLabel="Cancel"
      onConfirm={onProceed}
    />
  );
}
