import { z } from 'zod';
import { ORG_FILE_PREFIX } from '../constants.js';
import { Id } from './common.js';

/**
 * Exhibit files (spec 2.5, 7.4) and the organization's external content manager (Strapi): the
 * REST contract, and the file-name rule the console, the server and the SDK share. Depends on zod
 * and constants.ts only, so the SDK can compile it in.
 */

/** Names of organizational files (the content manager's media library) begin with this (constants.ts). */
export { ORG_FILE_PREFIX };
/** The longest file name, in UTF-8 bytes (what common file systems allow). */
export const MAX_FILE_NAME_BYTES = 255;
/** The default upload limit (MAX_FILE_BYTES): 2 GiB. */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 ** 3;
/** The spec's message for a name with the organizational prefix. */
export const ORG_PREFIX_MESSAGE = `Filename may not begin with "${ORG_FILE_PREFIX}"`;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Why an uploaded file name is refused, or null when it may be stored: not empty, at most 255
 * bytes, no path separator, no `..`, no control character, no leading or trailing space, not
 * beginning with '[ORG]'.
 */
export function fileNameProblem(name: string): string | null {
  if (!name) return 'A file name is required';
  if (name.startsWith(ORG_FILE_PREFIX)) return ORG_PREFIX_MESSAGE;
  if (/[/\\]/.test(name)) return `Filename may not contain "/" or "\\": ${name}`;
  if (name.includes('..')) return `Filename may not contain "..": ${name}`;
  if (CONTROL_CHARACTER.test(name)) return 'Filename may not contain control characters';
  if (name.trim() !== name) return `Filename may not begin or end with a space: ${name}`;
  if (new TextEncoder().encode(name).length > MAX_FILE_NAME_BYTES) return `Filename is longer than ${MAX_FILE_NAME_BYTES} bytes: ${name}`;
  return null;
}

/** Query of GET /content/files/ls and POST /content/files/upload. */
export const ContentFilesQuery = z.object({ exhibitId: Id, siteId: Id });

/** One file of an exhibit (or of its organization, `organizational`). */
export const ContentFileSchema = z.object({
  name: z.string(),
  /** When the current version was stored (ISO). */
  updated_at: z.string(),
  /** Bytes. */
  size: z.number(),
  /** A file of the organization's media library ('[ORG]' name), read through the content manager. */
  organizational: z.boolean(),
  /** SHA-256 (hex) of the content; null for organizational files, whose content Plinth does not hold. */
  sha256: z.string().nullable(),
});
export type ContentFile = z.infer<typeof ContentFileSchema>;

/** GET /content/files/ls: the exhibit's files (its leader's, for a follower) and the organizational ones. */
export const ContentFilesResponse = z.object({
  files: z.array(ContentFileSchema),
  /** Why organizational files could not be listed (the console shows 'Organizational Content is unavailable now'). */
  errors: z.array(z.string()),
});
export type ContentFiles = z.infer<typeof ContentFilesResponse>;

/** POST /content/files/upload: the files stored. */
export const ContentUploadResponse = z.object({ files: z.array(ContentFileSchema) });

/** GET /content/files/?exhibitId&fileName */
export const ContentFileQuery = z.object({ exhibitId: Id, fileName: z.string().min(1).max(1000) });

/** DELETE /content/files/?siteId&exhibitId&fileName[&confirm=true] */
export const ContentDeleteQuery = z.object({
  siteId: Id,
  exhibitId: Id,
  fileName: z.string().min(1).max(1000),
  /** Without it, a file in use answers 409 with the conflicts; with it, they are reset in the same transaction. */
  confirm: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** A FileSelection setting that names the file (in a list item when `listName` is set). */
export const FileConflictSettingSchema = z.object({
  exhibitId: Id,
  exhibitName: z.string(),
  settingId: z.string(),
  display: z.string(),
  listName: z.string().nullable(),
});
/** A future scheduled event whose setting change names the file. */
export const FileConflictEventSchema = z.object({ id: Id, name: z.string(), startDate: z.string() });
export const FileConflictsSchema = z.object({
  settings: z.array(FileConflictSettingSchema),
  events: z.array(FileConflictEventSchema),
});
export type FileConflicts = z.infer<typeof FileConflictsSchema>;

/** DELETE /content/files/: what was reset with the file (empty lists when nothing used it). */
export const ContentDeleteResponse = z.object({ ok: z.literal(true), reset: FileConflictsSchema });

/** GET /org-management/organization/setting/strapi/content: the entries a StrapiContent setting offers. */
export const StrapiContentQuery = z.object({
  exhibitId: Id,
  /** The setting's manifest id; its contentType and displayFieldName say what to list. */
  settingId: z.string().min(1).max(200),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const StrapiContentEntrySchema = z.object({
  id: z.union([z.string(), z.number()]),
  /** The entry's `displayFieldName` field as text ('' when missing). */
  display: z.string(),
});
export const StrapiContentListResponse = z.object({
  entries: z.array(StrapiContentEntrySchema),
  page: z.number(),
  pageCount: z.number(),
  total: z.number(),
});
export type StrapiContentList = z.infer<typeof StrapiContentListResponse>;

/** The spec's content-service messages (section 8); `reason` in the error details says which. */
export const STRAPI_MESSAGES = {
  noUrl: 'You need to set a Strapi URL to select content',
  noJwt: 'Error connecting to Strapi (no JWT). Are you sure the Strapi URL setting is correct?',
  options: (contentType: string) => `Error loading options for "StrapiContent" setting with type ${contentType}`,
} as const;
