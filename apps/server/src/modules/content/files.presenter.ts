import type { ContentFile, FileConflicts, GatewayMessageOf, RealtimeEventOf, SdkFile } from '@plinth/shared';
import { contentDisposition } from '../../lib/http-download.js';
import type { FileRow, FileSettingUse } from './files.repository.js';

/**
 * The answers of the files calls, the exhibit's `files.changed` message, the console events and
 * the headers of a download, built from the stored rows.
 */

export function presentContentFile(row: FileRow): ContentFile {
  return { name: row.name, updated_at: row.updatedAt.toISOString(), size: row.size, organizational: false, sha256: row.sha256 };
}

/** The settings a delete resets (or would reset), as the console lists them. */
export function presentConflictSettings(uses: FileSettingUse[]): FileConflicts['settings'] {
  return uses.map((u) => ({ exhibitId: u.exhibitId, exhibitName: u.exhibitName, settingId: u.settingId, display: u.display, listName: u.listName }));
}

/** Every file the exhibit should hold; `organizationalUnavailable` when the content manager could not be read. */
export function presentFilesMessage(files: ContentFile[], organizationalUnavailable: boolean): GatewayMessageOf<'files.changed'> {
  const sdkFiles = files.map((f): SdkFile => ({ name: f.name, size: f.size, sha256: f.sha256, updatedAt: f.updated_at, organizational: f.organizational }));
  return { type: 'files.changed', files: sdkFiles, ...(organizationalUnavailable ? { organizationalUnavailable: true } : {}) };
}

export function presentFileUploaded(exhibitId: string, fileName: string): RealtimeEventOf<'exhibit.fileUploaded'> {
  return { type: 'exhibit.fileUploaded', exhibitId, fileName };
}

export function presentFileDeleted(exhibitId: string, fileName: string): RealtimeEventOf<'exhibit.fileDeleted'> {
  return { type: 'exhibit.fileDeleted', exhibitId, fileName };
}

/** What a download says of the file: its validators, type and name. */
export type DownloadFacts = { fileName: string; contentType: string; size: number; updatedAt: Date; sha256: string | null };

/** The headers every download answer carries (200, 206 and 304 alike), besides the length and range. */
export function presentDownloadHeaders(file: DownloadFacts): Record<string, string> {
  return {
    ...(file.sha256 ? { etag: `"${file.sha256}"` } : {}),
    'last-modified': file.updatedAt.toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': file.contentType,
    'content-disposition': contentDisposition(file.fileName),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-cache',
  };
}
