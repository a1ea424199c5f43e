import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileConflictsSchema, type FileConflicts } from '@plinth/shared';
import { api, ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/mutation-state';
import { queryKeys } from '../../../lib/query-keys';
import type { ExhibitFilesInput } from './list-files';

export type DeleteFileInput = ExhibitFilesInput & {
  fileName: string;
  /** Delete even when settings or future events use the file; they are reset with it. */
  confirm?: boolean;
};

/**
 * DELETE /content/files/?siteId&exhibitId&fileName[&confirm=true]: 409 with the settings and
 * future events that use the file unless `confirm`; answers what was reset with it.
 */
export const deleteFile = ({ exhibitId, siteId, fileName, confirm }: DeleteFileInput) =>
  api.delete<{ ok: true; reset: FileConflicts }>('/content/files/', { siteId, exhibitId, fileName, confirm: confirm ? 'true' : undefined });

/** The settings and events of a 409 answer to a delete, or null for any other failure. */
export function fileConflicts(error: unknown): FileConflicts | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = FileConflictsSchema.safeParse((error.body as { details?: unknown } | null)?.details);
  return parsed.success ? parsed.data : null;
}

/** A file that is in use, and what uses it. */
export type FileInUse = { fileName: string; conflicts: FileConflicts };

export type DeleteFilesInput = { fileNames: string[]; confirm: boolean };
export type DeleteFilesOutcome = {
  deleted: string[];
  inUse: FileInUse[];
  /** Exhibits whose settings were reset with a deleted file. */
  resetExhibitIds: string[];
};

/** A delete of several files that failed for some (other than being in use): the message names each. */
export class DeleteFilesError extends Error {
  constructor(
    readonly failures: { fileName: string; message: string }[],
    /** What was done for the other files. */
    readonly outcome: DeleteFilesOutcome,
  ) {
    super(failures.map((f) => `${f.fileName}: ${f.message}`).join(' '));
  }
}

async function deleteFiles(input: ExhibitFilesInput & DeleteFilesInput): Promise<DeleteFilesOutcome> {
  const outcome: DeleteFilesOutcome = { deleted: [], inUse: [], resetExhibitIds: [] };
  const failures: { fileName: string; message: string }[] = [];
  for (const fileName of input.fileNames) {
    try {
      const { reset } = await deleteFile({ ...input, fileName });
      outcome.deleted.push(fileName);
      outcome.resetExhibitIds.push(...reset.settings.map((s) => s.exhibitId));
    } catch (error) {
      const conflicts = fileConflicts(error);
      if (conflicts) outcome.inUse.push({ fileName, conflicts });
      else failures.push({ fileName, message: errorText(error, 'Could not delete the file.') });
    }
  }
  if (failures.length) throw new DeleteFilesError(failures, outcome);
  return outcome;
}

/**
 * Deletes files one by one. Without `confirm`, files in use stay and come back in `inUse` with
 * their conflicts; with it they go and what used them is reset. Any other failure rejects with
 * DeleteFilesError once every file was tried. The file list is read again either way, and so are
 * the settings of the exhibits whose settings were reset.
 */
export function useDeleteFiles(input: ExhibitFilesInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: DeleteFilesInput) => deleteFiles({ ...input, ...files }),
    onSettled: (outcome, error) => {
      const reset = outcome ?? (error instanceof DeleteFilesError ? error.outcome : null);
      const exhibitIds = new Set(reset?.resetExhibitIds);
      const keys = [queryKeys.exhibitFiles(input.exhibitId), ...[...exhibitIds].map((id) => queryKeys.exhibitManifest(id))];
      return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
