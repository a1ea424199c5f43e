import { randomUUID } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileNameProblem, type ContentFile, type ContentFiles } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { tooLarge } from '../../lib/file-store.js';
import { listOrganizationFiles } from '../content-manager/media-library.service.js';
import { recordExhibit } from '../logging/records.js';
import { presentContentFile, presentFileDeleted, presentFilesMessage, presentFileUploaded } from './files.presenter.js';
import { findFileOwner, listFileFollowers, listFileRows, storeFileRows, type FileOwnerRow, type NewFile } from './files.repository.js';

/**
 * An exhibit's files (spec 2.5, 7.4): listed with the organization's files, uploaded as a whole
 * selection or not at all, and every change told to the consoles (hub topic `exhibit`) and to the
 * exhibits that hold the files (`files.changed`). A follower uses its leader's files. Deleting and
 * downloading are in file-delete.service.ts and file-download.service.ts.
 */

/** The most files one upload may carry. */
export const MAX_FILES_PER_UPLOAD = 100;

/** The exhibit a call names, and whose files it uses (`ownerId`: its leader's, for a follower). */
export type FileOwner = FileOwnerRow & { ownerId: string };

/** The exhibit named by a call; with `siteId`, it must be in that site (else 404, as when it does not exist). */
export async function findOwner(deps: AppDeps, target: { exhibitId: string; siteId?: string }): Promise<FileOwner> {
  const row = await findFileOwner(deps.db, target.exhibitId);
  if (!row || (target.siteId !== undefined && row.siteId !== target.siteId)) throw new AppError('NotFound', 'The exhibit does not exist.');
  return { ...row, ownerId: row.leaderId ?? row.id };
}

/** Uploads and deletes go to the leader: a follower only mirrors its leader's files. */
export function assertNotFollower(owner: FileOwner): void {
  if (owner.leaderId) throw new AppError('Conflict', "This exhibit uses its leader's files: upload and delete files on the leader.");
}

/**
 * The files of the owner and of its organization, with why the organization's could not be
 * listed. The content manager is asked first and the database last, so that a list sent after a
 * slow content manager is the newest, not one read before a change that another list announced.
 */
async function currentFiles(deps: AppDeps, owner: { ownerId: string; organizationId: string }): Promise<ContentFiles> {
  const organization = await listOrganizationFiles(deps, owner.organizationId);
  const rows = await listFileRows(deps.db, owner.ownerId);
  return { files: [...rows.map(presentContentFile), ...organization.files], errors: organization.errors };
}

/** GET /content/files/ls: the exhibit's files (its leader's, for a follower) and the organizational ones. */
export async function listExhibitFiles(deps: AppDeps, target: { exhibitId: string; siteId: string }): Promise<ContentFiles> {
  return currentFiles(deps, await findOwner(deps, target));
}

/** Sends `files.changed` (the whole list) to these exhibits, which all use `ownerId`'s files. */
async function sendFilesChanged(deps: AppDeps, owner: { ownerId: string; organizationId: string }, exhibitIds: string[]): Promise<void> {
  const { files, errors } = await currentFiles(deps, owner);
  const message = presentFilesMessage(files, errors.length > 0);
  for (const exhibitId of exhibitIds) deps.exhibitGateway.send(exhibitId, message);
}

/** The files an exhibit should hold (its leader's, for a follower; organizational ones too), as its SDK gets them. */
export async function exhibitFileList(deps: AppDeps, exhibitId: string): Promise<ContentFiles> {
  const owner = await findOwner(deps, { exhibitId });
  return currentFiles(deps, owner);
}

/** A change of the owner's files: consoles of the owner and of each follower get the events, those exhibits the new list. */
export async function announceFilesChanged(deps: AppDeps, owner: FileOwner, change: { uploaded?: string[]; deleted?: string[] }): Promise<void> {
  const followers = await listFileFollowers(deps.db, owner.ownerId);
  const exhibitIds = [owner.ownerId, ...followers.map((f) => f.id)];
  for (const exhibitId of exhibitIds) {
    for (const fileName of change.uploaded ?? []) deps.hub.publish('exhibit', exhibitId, presentFileUploaded(exhibitId, fileName));
    for (const fileName of change.deleted ?? []) deps.hub.publish('exhibit', exhibitId, presentFileDeleted(exhibitId, fileName));
  }
  await sendFilesChanged(deps, owner, exhibitIds);
}

/**
 * The exhibit's files as it should hold them, sent after `exhibit.synced` on every (re)connect
 * and when it starts or stops following a leader. It runs in the background: a slow content
 * manager never holds up the exhibit's other messages.
 */
export function pushExhibitFiles(deps: AppDeps, exhibitId: string): void {
  deps.background.run('Sending an exhibit its files', async () => {
    const row = await findFileOwner(deps.db, exhibitId);
    if (!row?.online) return;
    await sendFilesChanged(deps, { ownerId: row.leaderId ?? row.id, organizationId: row.organizationId }, [exhibitId]);
  });
}

/** Removes objects no row points to any more; a failure is logged (it leaves an orphan, never a broken file). */
export async function removeObjects(deps: AppDeps, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await deps.files.remove(key);
    } catch (error) {
      deps.logger.warn({ err: error, key }, 'A stored file could not be removed');
    }
  }
}

/** One file part of a multipart upload. */
export type UploadPart = { fieldname: string; filename: string; mimetype: string; file: Readable };

/** POST /content/files/upload: the parts as they arrive, who uploads, and the size limit per file. */
export type FileUpload = { exhibitId: string; siteId: string; parts: AsyncIterable<UploadPart>; by: string; maxBytes: number; audit: AuditContext };

/**
 * Stores every part under a new key, then points the names at them in one transaction, then
 * removes the versions they replace. A refused name anywhere refuses the whole selection; a
 * failure (too large, the client gone) keeps nothing of the upload and leaves every previous
 * version in use.
 */
export async function uploadFiles(deps: AppDeps, upload: FileUpload): Promise<{ files: ContentFile[] }> {
  const owner = await findOwner(deps, upload);
  assertNotFollower(owner);
  const stored = await storeParts(deps, { ownerId: owner.id, parts: upload.parts, by: upload.by, maxBytes: upload.maxBytes });
  let rows;
  try {
    rows = await storeFileRows(deps.db, owner.id, stored);
  } catch (error) {
    await removeObjects(deps, stored.map((s) => s.objectKey));
    if (!(await findFileOwner(deps.db, owner.id))) throw new AppError('NotFound', 'The exhibit does not exist.');
    throw error;
  }
  await removeObjects(deps, rows.replacedKeys);
  for (const file of stored) recordExhibit(deps.logs, owner.id, { eventType: 'file', message: `File "${file.name}" uploaded by ${upload.by} (${file.size} bytes)` });
  const place = { organizationId: owner.organizationId, siteId: owner.siteId, exhibitId: owner.id, resource: 'file' };
  for (const file of stored) {
    const replaced = rows.replacedKeys.length > 0;
    await deps.audit.record(upload.audit, { ...place, resourceId: file.name, action: 'upload', after: { name: file.name, size: file.size, replaced } });
  }
  await announceFilesChanged(deps, owner, { uploaded: stored.map((s) => s.name) });
  // In the order of the selection.
  const byName = new Map(rows.rows.map((row) => [row.name, row]));
  return { files: stored.map((s) => presentContentFile(byName.get(s.name)!)) };
}

/** Streams each part to the store under a new key; on any refusal or failure removes what it stored and throws. */
async function storeParts(deps: AppDeps, upload: { ownerId: string; parts: AsyncIterable<UploadPart>; by: string; maxBytes: number }): Promise<NewFile[]> {
  const stored: NewFile[] = [];
  let refused: string | null = null;
  try {
    for await (const part of upload.parts) {
      refused ??= partProblem(part, stored);
      if (refused) {
        // The rest of the selection is read and dropped, so the answer reaches the client.
        await pipeline(part.file, new Writable({ write: (_chunk, _encoding, callback) => callback() }));
        continue;
      }
      const objectKey = `files/${upload.ownerId}/${randomUUID()}`;
      const contentType = safeContentType(part.mimetype);
      const object = await deps.files.put(objectKey, part.file, { maxBytes: upload.maxBytes, contentType });
      stored.push({ name: part.filename, objectKey, size: object.size, sha256: object.sha256, contentType, uploadedBy: upload.by });
    }
  } catch (error) {
    await removeObjects(deps, stored.map((s) => s.objectKey));
    throw refused ? new AppError('ValidationError', refused) : uploadError(error, upload.maxBytes);
  }
  if (refused || !stored.length) {
    await removeObjects(deps, stored.map((s) => s.objectKey));
    throw new AppError('ValidationError', refused ?? 'file: choose at least one file to upload');
  }
  return stored;
}

/** Why a part is refused: not in the `file` field, a name the rules refuse, or a name the selection already has. */
function partProblem(part: UploadPart, stored: NewFile[]): string | null {
  if (part.fieldname !== 'file') return `Files must be sent in the form field "file" (not "${part.fieldname}")`;
  const problem = fileNameProblem(part.filename);
  if (problem) return problem;
  return stored.some((s) => s.name === part.filename) ? `The file "${part.filename}" is selected twice` : null;
}

/** The multipart parser's own limits as the API's errors. */
function uploadError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return new AppError('PayloadTooLarge', `At most ${MAX_FILES_PER_UPLOAD} files can be uploaded at once.`);
  return error;
}

const SAFE_TYPES = [/^image\/(?!svg)[a-z0-9.+-]+$/, /^video\/[a-z0-9.+-]+$/, /^audio\/[a-z0-9.+-]+$/, /^application\/(pdf|json)$/, /^text\/(plain|csv)$/];

/**
 * The content type a file is served with: the uploader's, when it is one a browser shows without
 * running anything (images but SVG, video, audio, PDF, JSON, plain text, CSV), else
 * application/octet-stream. Parameters (a charset) are dropped.
 */
export function safeContentType(mimetype: string | undefined): string {
  const type = (mimetype ?? '').split(';')[0]!.trim().toLowerCase();
  return SAFE_TYPES.some((safe) => safe.test(type)) ? type : 'application/octet-stream';
}
