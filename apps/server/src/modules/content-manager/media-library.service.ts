import { Readable } from 'node:stream';
import { z } from 'zod';
import { fileNameProblem, MAX_FILE_NAME_BYTES, ORG_FILE_PREFIX, ORG_PREFIX_MESSAGE, type ContentFile } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { ByteRange } from '../../lib/file-store.js';
import { ContentManagerError, strapiGetFile, strapiGetJson, type StrapiFileAnswer } from './content-manager.client.js';
import { presentOrganizationFile } from './content-manager.presenter.js';
import { loadContentManagerConfig, withStrapi, type StrapiConnection } from './strapi-connection.service.js';

/**
 * The organization's media library in its content manager (Strapi's upload plugin): the
 * organizational files every exhibit of the organization lists and syncs, named with the '[ORG]'
 * prefix. Plinth reads them on behalf of the console and the SDK; credentials stay on the server.
 */

export type OrganizationFiles = { files: ContentFile[]; errors: string[] };

/** One file of GET {url}/api/upload/files (Strapi v4 and v5 answer a plain array). */
const LibraryFile = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  mime: z.string().nullish(),
  /** kB (1000 bytes), two decimals. */
  size: z.number(),
  /** Relative to the content manager's URL (its local provider), or absolute (a cloud provider). */
  url: z.string().min(1),
  updatedAt: z.string(),
});
type LibraryFile = z.infer<typeof LibraryFile>;
/** The files themselves are read one by one: a file Plinth cannot use is left out, not the listing. */
const LibraryAnswer = z.union([z.array(z.unknown()), z.object({ data: z.array(z.unknown()) }), z.object({ results: z.array(z.unknown()) })]);

const UNREADABLE = 'The organizational content (the content manager\'s media library) could not be read';

/** The name a library file gets in Plinth, or null when it cannot be a file name on an exhibit's disk. */
function organizationalName(name: string): string | null {
  const problem = fileNameProblem(name);
  if (problem && problem !== ORG_PREFIX_MESSAGE) return null;
  const full = `${ORG_FILE_PREFIX} ${name}`;
  return new TextEncoder().encode(full).length > MAX_FILE_NAME_BYTES ? null : full;
}

/** The usable files of the library by their Plinth name; of two files of one name, the newest. */
async function readLibrary(deps: AppDeps, connection: StrapiConnection): Promise<Map<string, LibraryFile>> {
  const answer = await strapiGetJson(deps.outbound, { url: `${connection.url}/api/upload/files`, jwt: connection.jwt }, LibraryAnswer);
  const items = Array.isArray(answer) ? answer : 'data' in answer ? answer.data : answer.results;
  const byName = new Map<string, LibraryFile>();
  for (const item of items) {
    const parsed = LibraryFile.safeParse(item);
    if (!parsed.success || Number.isNaN(Date.parse(parsed.data.updatedAt))) continue;
    const file = { ...parsed.data, updatedAt: new Date(parsed.data.updatedAt).toISOString() };
    const name = organizationalName(file.name);
    const previous = name ? byName.get(name) : undefined;
    if (name && (!previous || previous.updatedAt < file.updatedAt)) byName.set(name, file);
  }
  return byName;
}

/** Why a read failed, in words for the people who set the content manager up. */
function causeOf(error: unknown): string {
  if (!(error instanceof AppError)) throw error;
  const cause = (error.details as { cause?: unknown } | undefined)?.cause;
  return typeof cause === 'string' ? cause : error.message;
}

/**
 * The organizational files ('[ORG] <name>', `organizational: true`, `sha256: null`). Never
 * throws for the content manager's sake: an unreachable, slow or wrong content manager gives an
 * entry in `errors` and no files. No content manager configured: no files, no errors.
 */
export async function listOrganizationFiles(deps: AppDeps, organizationId: string): Promise<OrganizationFiles> {
  try {
    if (!(await loadContentManagerConfig(deps, organizationId))) return { files: [], errors: [] };
    const library = await withStrapi(deps, organizationId, (c) => readLibrary(deps, c));
    const files = [...library.entries()].map(([, file]) => presentOrganizationFile(file));
    return { files: files.sort((a, b) => a.name.localeCompare(b.name)), errors: [] };
  } catch (error) {
    return { files: [], errors: [`${UNREADABLE}: ${causeOf(error)}`] };
  }
}

/**
 * One organizational file's content: `size` is the whole file's size in bytes (the content
 * manager's Content-Length or Content-Range when it sends them, else the library's size), and
 * with a range `body` holds exactly the bytes `range.start` to `min(range.end, size - 1)`.
 */
export type OrganizationFileStream = { body: Readable; size: number; contentType: string; updatedAt: string };

/** The URL the file's bytes are at, and whether it is the content manager's own (so it may get the jwt). */
function fileLocation(connection: StrapiConnection, file: LibraryFile): { url: string; isOwn: boolean } {
  const base = new URL(`${connection.url}/`);
  const url = new URL(/^https?:\/\//i.test(file.url) ? file.url : `${connection.url}/${file.url.replace(/^\/+/, '')}`);
  return { url: url.href, isOwn: url.origin === base.origin };
}

/** The whole size from Content-Range (`bytes 0-9/1234`), or null. */
function rangeTotal(answer: StrapiFileAnswer): { start: number; total: number } | null {
  const match = /^bytes (\d+)-\d+\/(\d+)$/.exec(answer.headers.get('content-range') ?? '');
  return match ? { start: Number(match[1]), total: Number(match[2]) } : null;
}

/** The bytes `start` to `start + length - 1` of `source`, streaming (the rest of the source is not read). */
async function* slice(source: Readable, start: number, length: number): AsyncGenerator<Buffer> {
  let position = 0;
  let left = length;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const from = Math.max(0, start - position);
    position += chunk.length;
    if (from >= chunk.length) continue;
    const part = chunk.subarray(from, from + left);
    left -= part.length;
    yield part;
    if (left <= 0) return;
  }
}

/** The answer as the file's content: a content manager that ignored the range is cut to it here. */
function toFileStream(answer: StrapiFileAnswer, file: LibraryFile, range: ByteRange | undefined): Omit<OrganizationFileStream, 'updatedAt'> {
  const contentType = file.mime || answer.headers.get('content-type') || 'application/octet-stream';
  const body = answer.body ?? Readable.from([]);
  const length = Number(answer.headers.get('content-length') ?? NaN);
  const partial = answer.status === 206 ? rangeTotal(answer) : null;
  const size = partial?.total ?? (answer.status === 200 && Number.isFinite(length) ? length : Math.round(file.size * 1000));
  if (!range) return { body, size, contentType };
  if (range.start >= size) {
    body.destroy();
    throw new AppError('ValidationError', `range: the file has ${size} bytes`);
  }
  const wanted = Math.min(range.end, size - 1) - range.start + 1;
  if (partial && partial.start !== range.start) {
    body.destroy();
    throw new AppError('ExternalServiceError', 'The content manager answered another range of the file than asked.');
  }
  return { body: Readable.from(slice(body, partial ? 0 : range.start, wanted)), size, contentType };
}

/** GETs the file: absent is NotFound, a range past its end a ValidationError naming `range`. */
async function fetchFile(deps: AppDeps, get: { url: string; jwt: string | null; range?: string }): Promise<StrapiFileAnswer> {
  try {
    return await strapiGetFile(deps.outbound, get);
  } catch (error) {
    if (error instanceof ContentManagerError && error.upstreamStatus === 404) throw new AppError('NotFound', 'The organizational file was not found.');
    if (error instanceof ContentManagerError && error.upstreamStatus === 416) throw new AppError('ValidationError', 'range: the file is shorter than the range');
    throw error;
  }
}

/** One organizational file's bytes (all or a range), by its '[ORG]' name; NotFound when absent. */
export async function openOrganizationFile(
  deps: AppDeps,
  file: { organizationId: string; fileName: string; range?: ByteRange },
): Promise<OrganizationFileStream> {
  const missing = () => new AppError('NotFound', 'The organizational file was not found.');
  if (!file.fileName.startsWith(`${ORG_FILE_PREFIX} `)) throw missing();
  if (!(await loadContentManagerConfig(deps, file.organizationId))) throw missing();
  const range = file.range ? `bytes=${file.range.start}-${file.range.end}` : undefined;
  try {
    return await withStrapi(deps, file.organizationId, async (connection) => {
      const found = (await readLibrary(deps, connection)).get(file.fileName);
      if (!found) throw missing();
      const location = fileLocation(connection, found);
      const answer = await fetchFile(deps, { url: location.url, jwt: location.isOwn ? connection.jwt : null, range });
      return { ...toFileStream(answer, found, file.range), updatedAt: found.updatedAt };
    });
  } catch (error) {
    const isOwnAnswer = error instanceof AppError && (error.code === 'NotFound' || (error.code === 'ValidationError' && error.message.startsWith('range:')));
    if (isOwnAnswer) throw error;
    throw new AppError('ExternalServiceError', `${UNREADABLE}: ${causeOf(error)}`);
  }
}
