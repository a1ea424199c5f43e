import type { ByteRange } from './file-store.js';

/**
 * The HTTP rules of a file download, apart from any module: the `Range` header (one byte range),
 * the conditional headers, and a `Content-Disposition` that is safe whatever the file's name.
 */

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeRequest = { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * A single byte range (`bytes=0-99`, `bytes=100-`, `bytes=-100`), clamped to the file. A header
 * that is absent, malformed, or asks for several ranges answers the whole file (RFC 9110 lets a
 * server ignore Range); a range starting past the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}

/** Whether `If-Range` (an entity tag or a date) still names this version; absent, it does. */
export function ifRangeMatches(header: string | undefined, current: { etag: string | null; updatedAt: Date }): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return current.etag !== null && value === current.etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(current.updatedAt.getTime() / 1000) <= Math.floor(date / 1000);
}

/**
 * Whether the client's copy is current (answer 304): `If-None-Match` names the entity tag (weak
 * or strong, or `*`), or, without it, `If-Modified-Since` is not older than the version.
 */
export function isNotModified(headers: { ifNoneMatch?: string; ifModifiedSince?: string }, current: { etag: string | null; updatedAt: Date }): boolean {
  if (headers.ifNoneMatch !== undefined) {
    if (headers.ifNoneMatch.trim() === '*') return true;
    if (!current.etag) return false;
    return headers.ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === current.etag);
  }
  if (!headers.ifModifiedSince) return false;
  const since = Date.parse(headers.ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(current.updatedAt.getTime() / 1000) <= Math.floor(since / 1000);
}

/**
 * `attachment` with the name twice: a plain ASCII fallback (anything else, quotes, backslashes
 * and percent signs become '_') and the exact name as UTF-8 (RFC 6266, RFC 8187).
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
