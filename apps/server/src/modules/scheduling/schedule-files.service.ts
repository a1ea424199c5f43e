import type { AppDeps } from '../../deps.js';
import { recordExhibit } from '../logging/records.js';
import { listFileFollowers } from '../content/files.repository.js';
import { removeFileFromEvents } from './scheduling.repository.js';
import { announceSchedulesChanged } from './scheduling.service.js';

/**
 * DELETE /exhibit-management/scheduling/schedulesetting/file/{fileName}?exhibitId: the waiting
 * events of the exhibit and of its followers (which use its files) lose the setting changes that
 * name the file. A confirmed file delete does the same in its own transaction (file-delete.service.ts).
 * Answers how many events changed.
 */
export async function removeFileFromSchedules(deps: AppDeps, target: { exhibitId: string; fileName: string; by: string }): Promise<number> {
  const exhibitIds = [target.exhibitId, ...(await listFileFollowers(deps.db, target.exhibitId)).map((f) => f.id)];
  const changed = await removeFileFromEvents(deps.db, { exhibitIds, fileName: target.fileName });
  for (const exhibitId of new Set(changed.map((c) => c.exhibitId))) {
    const count = changed.filter((c) => c.exhibitId === exhibitId).length;
    recordExhibit(deps.logs, exhibitId, {
      eventType: 'schedule',
      message: `The file "${target.fileName}" was removed from ${count} scheduled event${count === 1 ? '' : 's'} by ${target.by}`,
    });
    announceSchedulesChanged(deps, exhibitId);
  }
  return changed.length;
}
