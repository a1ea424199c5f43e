import { LockedExhibitDialog } from './LockedExhibitDialog';
import { NameDialog } from './NameDialog';
import { TypeToDeleteDialog } from './TypeToDeleteDialog';

export type ItemEditDialog = 'rename' | 'delete' | 'locked';

export type ItemEditDialogsProps = {
  itemType: 'organization' | 'site' | 'exhibit' | 'hardware';
  itemName: string;
  /** The screen's open dialog; these three show when it names one of them. */
  open: string | null;
  /** Closes `dialog` unless the screen has moved on to another one meanwhile (delete → locked). */
  onClose: (dialog: ItemEditDialog) => void;
  onRename: (name: string) => Promise<void>;
  onDelete: () => Promise<void>;
  /** The locked exhibits that block deleting; organizations, sites and exhibits only. */
  lockedExhibits?: { id: string; name: string }[];
};

/** The edit-name, type-the-name delete and locked-exhibit dialogs of every item screen. */
export function ItemEditDialogs({ itemType, itemName, open, onClose, onRename, onDelete, lockedExhibits }: ItemEditDialogsProps) {
  return (
    <>
      <NameDialog
        opened={open === 'rename'}
        onClose={() => onClose('rename')}
        title={`Edit ${itemType} name`}
        label="Name"
        initialValue={itemName}
        confirmLabel="Save"
        requireChange
        onSubmit={onRename}
      />
      <TypeToDeleteDialog
        opened={open === 'delete'}
        onClose={() => onClose('delete')}
        itemType={itemType}
        itemName={itemName}
        onConfirm={onDelete}
      />
      {itemType !== 'hardware' && lockedExhibits && (
        <LockedExhibitDialog
          opened={open === 'locked'}
          onClose={() => onClose('locked')}
          itemType={itemType}
          lockedExhibits={lockedExhibits}
        />
      )}
    </>
  );
}
