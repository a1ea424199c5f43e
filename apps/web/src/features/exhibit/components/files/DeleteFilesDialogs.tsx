import { List, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../../components/dialogs/ConfirmDialog';
import { formatDate } from '../../../../lib/format-date';
import { DeleteFilesError, useDeleteFiles, type FileInUse } from '../../api/delete-file';
import type { ExhibitFilesInput } from '../../api/list-files';

/** What the warning says before the list of what uses the files. */
export const filesInUseMessage = (count: number) =>
  count === 1
    ? 'This file is in use. Deleting it resets these settings to their default values and removes the setting change from these scheduled events.'
    : 'These files are in use. Deleting them resets these settings to their default values and removes the setting change from these scheduled events.';

export type DeleteFilesDialogsProps = {
  files: ExhibitFilesInput;
  /** The files to delete; null when no deletion is under way. */
  fileNames: string[] | null;
  onClose: () => void;
  /** The files the server deleted (they leave the selection). */
  onDeleted: (fileNames: string[]) => void;
};

function InUseList({ inUse }: { inUse: FileInUse[] }) {
  return (
    <Stack gap="sm">
      <Text>{filesInUseMessage(inUse.length)}</Text>
      {inUse.map(({ fileName, conflicts }) => (
        <Stack key={fileName} gap={4} data-testid="file-in-use">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {fileName}
          </Text>
          {conflicts.settings.length > 0 && (
            <List size="sm" aria-label={`Settings using ${fileName}`}>
              {conflicts.settings.map((s) => (
                <List.Item key={`${s.exhibitId}/${s.settingId}/${s.listName ?? ''}`}>
                  Setting “{s.display}”{s.listName ? ` (list item “${s.listName}”)` : ''} of {s.exhibitName}
                </List.Item>
              ))}
            </List>
          )}
          {conflicts.events.length > 0 && (
            <List size="sm" aria-label={`Events using ${fileName}`}>
              {conflicts.events.map((e) => (
                <List.Item key={e.id}>
                  Event “{e.name}” on {formatDate(e.startDate, 'value')}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * Delete Files (spec 2.5): a plain confirmation first; files that settings or future scheduled
 * events use are not deleted then, and a second dialog lists what uses them. Confirming it deletes
 * them anyway, which resets those settings to their default and takes the setting change out of
 * those events.
 */
export function DeleteFilesDialogs({ files, fileNames, onClose, onDeleted }: DeleteFilesDialogsProps) {
  const remove = useDeleteFiles(files);
  const [inUse, setInUse] = useState<FileInUse[] | null>(null);
  // The first dialog closes itself once its write resolved; when the warning follows, that close
  // must not end the deletion.
  const isShowingInUse = useRef(false);

  const close = () => {
    setInUse(null);
    onClose();
  };

  const run = async (names: string[], confirm: boolean) => {
    try {
      const outcome = await remove.mutateAsync({ fileNames: names, confirm });
      onDeleted(outcome.deleted);
      return outcome;
    } catch (error) {
      if (error instanceof DeleteFilesError) onDeleted(error.outcome.deleted);
      throw error;
    }
  };

  const handleDelete = async () => {
    const outcome = await run(fileNames ?? [], false);
    if (outcome.inUse.length) {
      isShowingInUse.current = true;
      setInUse(outcome.inUse);
    }
  };

  const handleFirstClose = () => {
    if (isShowingInUse.current) isShowingInUse.current = false;
    else close();
  };

  const count = fileNames?.length ?? 0;
  return (
    <>
      <ConfirmDialog
        opened={fileNames !== null && inUse === null}
        onClose={handleFirstClose}
        title="Delete Files"
        message={
          <Stack gap="xs">
            <Text>{count === 1 ? 'Delete this file?' : `Delete these ${count} files?`}</Text>
            <List size="sm">
              {(fileNames ?? []).map((name) => (
                <List.Item key={name} style={{ overflowWrap: 'anywhere' }}>
                  {name}
                </List.Item>
              ))}
            </List>
          </Stack>
        }
        confirmLabel="Delete"
        cancelLabel="Cancel"
        danger
        onConfirm={handleDelete}
        mutation={remove}
      />
      <ConfirmDialog
        opened={inUse !== null}
        onClose={close}
        title="Files in use"
        message={<InUseList inUse={inUse ?? []} />}
        confirmLabel="Delete and reset"
        cancelLabel="Cancel"
        danger
        onConfirm={() => run((inUse ?? []).map((f) => f.fileName), true)}
        mutation={remove}
      />
    </>
  );
}
