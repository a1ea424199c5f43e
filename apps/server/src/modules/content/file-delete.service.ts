import { defaultSettingValue, ORG_FILE_PREFIX, type FileConflicts, type ManifestSetting, type SettingValue } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { listChanged, settingSaved } from '../exhibit-runtime/exhibit-settings.service.js';
import { recordExhibit } from '../logging/records.js';
import { findEventsUsingFile, removeFileFromEvents } from '../scheduling/scheduling.repository.js';
import { announceSchedulesChanged } from '../scheduling/scheduling.service.js';
import { presentConflictSettings } from './files.presenter.js';
import { deleteFileWithResets, findFileRow, findFileSettingUses, listFileFollowers, type FileDeletion, type FileSettingUse } from './files.repository.js';
import { announceFilesChanged, assertNotFollower, findOwner, removeObjects } from './files.service.js';

/**
 * Deleting a file (spec 7.4): a file that a FileSelection setting of the exhibit or of its
 * followers names, or that a future scheduled event uses, answers 409 with those conflicts unless
 * the call confirms; confirming resets those settings to their default in the same transaction
 * as the delete, and they then reach the exhibits and consoles like any saved setting.
 */

/** The future scheduled events of these exhibits whose setting change names the file. */
export async function findScheduledEventConflicts(deps: AppDeps, where: { exhibitIds: string[]; fileName: string }): Promise<FileConflicts['events']> {
  const rows = await findEventsUsingFile(deps.db, where);
  return rows.map((r) => ({ id: r.id, name: r.name, startDate: r.startDate.toISOString() }));
}

/** DELETE /content/files/: the file, and whether the caller confirmed resetting what uses it; `by` is who (an email). */
export type FileDelete = { exhibitId: string; siteId: string; fileName: string; confirm: boolean; by: string; audit: AuditContext };

function conflict(fileName: string, conflicts: { uses: FileSettingUse[]; events: FileConflicts['events'] }): AppError {
  const settings = presentConflictSettings(conflicts.uses);
  const count = settings.length + conflicts.events.length;
  const message = `The file "${fileName}" is in use by ${count} setting${count === 1 ? '' : 's'} or scheduled event${count === 1 ? '' : 's'}. Confirm to delete it and reset them.`;
  return new AppError('Conflict', message, { details: { settings, events: conflicts.events } satisfies FileConflicts });
}

/** What a setting naming the deleted file becomes: its default, or no file when the default is that file. */
function resetValueFor(fileName: string) {
  return (use: FileSettingUse): SettingValue => {
    const value = defaultSettingValue(use.definition as ManifestSetting);
    return value === fileName ? '' : value;
  };
}

export async function deleteFile(deps: AppDeps, del: FileDelete): Promise<{ ok: true; reset: FileConflicts }> {
  const owner = await findOwner(deps, del);
  assertNotFollower(owner);
  const { fileName } = del;
  if (fileName.startsWith(ORG_FILE_PREFIX)) throw new AppError('ValidationError', 'Organizational files are deleted in the content manager.');
  if (!(await findFileRow(deps.db, owner.id, fileName))) throw new AppError('NotFound', `The file "${fileName}" does not exist.`);
  const exhibitIds = [owner.id, ...(await listFileFollowers(deps.db, owner.id)).map((f) => f.id)];
  const events = await findScheduledEventConflicts(deps, { exhibitIds, fileName });
  if (!del.confirm) {
    const uses = await findFileSettingUses(deps.db, { exhibitIds, fileName });
    if (uses.length || events.length) throw conflict(fileName, { uses, events });
  }
  // Confirmed: the scheduled events naming the file lose that change in the delete's transaction.
  const alsoInTransaction = async (tx: Db) => {
    if (del.confirm) await removeFileFromEvents(tx, { exhibitIds, fileName });
  };
  const result = await deleteFileWithResets(deps.db, {
    exhibitId: owner.id,
    fileName,
    exhibitIds,
    resetUses: del.confirm,
    resetValue: resetValueFor(fileName),
    alsoInTransaction,
  });
  if (!result) throw new AppError('NotFound', `The file "${fileName}" does not exist.`);
  if ('blocked' in result) throw conflict(fileName, { uses: result.blocked, events });
  await announceResets(deps, { result, fileName, by: del.by });
  if (events.length) for (const exhibitId of exhibitIds) announceSchedulesChanged(deps, exhibitId);
  await removeObjects(deps, [result.objectKey]);
  recordExhibit(deps.logs, owner.id, { eventType: 'file', message: `File "${fileName}" deleted by ${del.by}` });
  await deps.audit.record(del.audit, {
    organizationId: owner.organizationId,
    siteId: owner.siteId,
    exhibitId: owner.id,
    resource: 'file',
    resourceId: fileName,
    action: 'delete',
    before: { name: fileName },
    after: { settingsReset: result.uses.length, eventsChanged: events.length },
  });
  await announceFilesChanged(deps, owner, { deleted: [fileName] });
  return { ok: true, reset: { settings: presentConflictSettings(result.uses), events } };
}

/** After the commit: the reset settings and lists go to their exhibits and consoles as a save does. */
async function announceResets(deps: AppDeps, reset: { result: FileDeletion; fileName: string; by: string }): Promise<void> {
  const { result, fileName, by } = reset;
  for (const s of result.settings) {
    settingSaved(deps, s.exhibitId, { manifestId: s.settingId, value: s.value, version: s.version });
  }
  for (const list of result.lists) await listChanged(deps, list.exhibitId, list.listId);
  for (const use of result.uses) {
    const where = use.listName === null ? '' : ` of "${use.listName}"`;
    recordExhibit(deps.logs, use.exhibitId, { eventType: 'setting', message: `Setting "${use.settingId}"${where} reset by ${by}: the file "${fileName}" was deleted` });
  }
}
