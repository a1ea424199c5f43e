import type { Readable } from 'node:stream';
import { Id, ORG_FILE_PREFIX, type ErrorBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { parseBasicAuth } from '../../lib/basic-auth.js';
import { ifRangeMatches, isNotModified, parseRange, type RangeRequest } from '../../lib/http-download.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import type { Grants } from '../access/grants.js';
import { listOrganizationFiles, openOrganizationFile } from '../content-manager/media-library.service.js';
import { verifyExhibitToken } from '../exhibit-runtime/exhibit-tokens.service.js';
import { presentDownloadHeaders, type DownloadFacts } from './files.presenter.js';
import { findFileRow } from './files.repository.js';
import { findOwner, safeContentType, type FileOwner } from './files.service.js';

/**
 * GET /content/files/?exhibitId&fileName: one file's bytes, streamed from the store (or, for an
 * '[ORG]' name, from the content manager), with its validators and byte ranges. Readers are a
 * signed-in user who may view the exhibit, or the exhibit itself with HTTP Basic auth (its id
 * and one of its tokens), which reads only its own files (its leader's, for a follower).
 */

/** Who asks and what: the caller's grants when signed in, and the request's headers. */
export type DownloadRequest = {
  exhibitId: string;
  fileName: string;
  /** The signed-in user's grants, or null without a session. */
  grants: (() => Promise<Grants>) | null;
  headers: { authorization?: string; range?: string; ifRange?: string; ifNoneMatch?: string; ifModifiedSince?: string };
  /** Set when the caller already proved it is this exhibit another way (the Gumband compatibility's cookie). */
  verifiedExhibit?: boolean;
};

/** The answer: its status and headers, and the bytes (200, 206) or an error body (416). */
export type Download = { status: 200 | 206 | 304 | 416; headers: Record<string, string>; body: Readable | null; error?: ErrorBody };

/** 401 without credentials or with wrong ones; 404 for an exhibit the caller may not read. */
async function authorizeReader(deps: AppDeps, request: DownloadRequest): Promise<void> {
  if (request.verifiedExhibit) return;
  const basic = parseBasicAuth(request.headers.authorization);
  if (basic) {
    const valid = Id.safeParse(basic.user).success && (await verifyExhibitToken(deps, basic.user, basic.password));
    if (!valid) throw new AppError('Unauthorized', 'The exhibit id or token is not valid.');
    if (basic.user !== request.exhibitId) throw new AppError('NotFound', 'The exhibit does not exist.');
    return;
  }
  if (!request.grants) throw new AppError('Unauthorized');
  await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.exhibitId, right: 'view' });
}

export async function openDownload(deps: AppDeps, request: DownloadRequest): Promise<Download> {
  await authorizeReader(deps, request);
  const owner = await findOwner(deps, { exhibitId: request.exhibitId });
  if (request.fileName.startsWith(ORG_FILE_PREFIX)) return openOrganizationDownload(deps, { owner, request });
  const row = await findFileRow(deps.db, owner.ownerId, request.fileName);
  if (!row) throw new AppError('NotFound', `The file "${request.fileName}" does not exist.`);
  const facts: DownloadFacts = { fileName: row.name, contentType: row.contentType, size: row.size, updatedAt: row.updatedAt, sha256: row.sha256 };
  const headers = presentDownloadHeaders(facts);
  const current = { etag: headers.etag ?? null, updatedAt: row.updatedAt };
  if (isNotModified(request.headers, current)) return { status: 304, headers, body: null };
  const asked = ifRangeMatches(request.headers.ifRange, current) ? parseRange(request.headers.range, row.size) : ({ kind: 'whole' } as const);
  if (asked.kind === 'unsatisfiable') return unsatisfiable(headers, row.size);
  const range = asked.kind === 'range' ? asked.range : undefined;
  return bytes(headers, { size: row.size, asked, body: await deps.files.get(row.objectKey, range) });
}

/** 416: the range starts past the end of the file. */
function unsatisfiable(headers: Record<string, string>, size: number): Download {
  const message = `The range is outside the file (${size} bytes).`;
  return {
    status: 416,
    headers: { ...headers, 'content-range': `bytes */${size}`, 'content-type': 'application/json; charset=utf-8' },
    body: null,
    error: { response: message, code: 'ValidationError', message },
  };
}

/** 200 with the whole file, or 206 with the range asked. */
function bytes(headers: Record<string, string>, answer: { size: number; asked: RangeRequest; body: Readable }): Download {
  const { size, asked, body } = answer;
  if (asked.kind !== 'range') return { status: 200, headers: { ...headers, 'content-length': String(size) }, body };
  const { start, end } = asked.range;
  return { status: 206, headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) }, body };
}

/**
 * An organizational file from the content manager. Without a Range it is opened at once; with
 * one, its size comes from the organization's listing first (the range is clamped to it).
 */
async function openOrganizationDownload(deps: AppDeps, download: { owner: FileOwner; request: DownloadRequest }): Promise<Download> {
  const { owner, request } = download;
  const file = { organizationId: owner.organizationId, fileName: request.fileName };
  if (!request.headers.range) {
    const opened = await openOrganizationFile(deps, file);
    const headers = presentDownloadHeaders({ ...opened, fileName: file.fileName, updatedAt: new Date(opened.updatedAt), contentType: safeContentType(opened.contentType), sha256: null });
    return bytes(headers, { size: opened.size, asked: { kind: 'whole' }, body: opened.body });
  }
  const listed = (await listOrganizationFiles(deps, owner.organizationId)).files.find((f) => f.name === request.fileName);
  if (!listed) throw new AppError('NotFound', `The file "${request.fileName}" does not exist.`);
  const updatedAt = new Date(listed.updated_at);
  const asked = ifRangeMatches(request.headers.ifRange, { etag: null, updatedAt }) ? parseRange(request.headers.range, listed.size) : ({ kind: 'whole' } as const);
  const facts = { fileName: file.fileName, size: listed.size, updatedAt, contentType: 'application/octet-stream', sha256: null };
  if (asked.kind === 'unsatisfiable') return unsatisfiable(presentDownloadHeaders(facts), listed.size);
  const opened = await openOrganizationFile(deps, { ...file, range: asked.kind === 'range' ? asked.range : undefined });
  const headers = presentDownloadHeaders({ ...facts, contentType: safeContentType(opened.contentType) });
  return bytes(headers, { size: listed.size, asked, body: opened.body });
}
