import type { AppDeps } from '../../deps.js';

/**
 * After exhibits or boards were deleted (their rows are gone): their objects in the file store
 * go too, the exhibits' files and the boards' firmware. A failure is logged and leaves an orphan
 * object, never a broken file.
 */
export async function removeStoredObjects(deps: AppDeps, deleted: { exhibitIds: string[]; hardwareIds: string[] }): Promise<void> {
  const prefixes = [...deleted.exhibitIds.map((id) => `files/${id}/`), ...deleted.hardwareIds.map((id) => `firmware/${id.toLowerCase()}/`)];
  for (const prefix of prefixes) {
    try {
      await deps.files.removePrefix(prefix);
    } catch (error) {
      deps.logger.warn({ err: error, prefix }, 'The stored files of a deleted exhibit or board could not be removed');
    }
  }
}
