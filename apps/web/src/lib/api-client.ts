import { ERROR_MESSAGES, messageForError, statusCategory } from '@plinth/shared';

/** An answer other than 2xx: the HTTP status, the body and the text to show a person. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }

  /** The body's `response` field: a catalogue code or a server message. */
  get response(): string | undefined {
    const body = this.body as { response?: unknown } | null;
    return typeof body?.response === 'string' ? body.response : undefined;
  }

  get category(): string {
    return statusCategory(this.status);
  }
}

/** The HTTP status of a failed call, or null when it is not an answer of the server. */
export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

export const API_BASE = '/api/v1';

type Query = Record<string, string | number | boolean | string[] | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Every call sends credentials (the session cookie) and answers parsed JSON or throws ApiError. */
export async function apiFetch<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  const init: RequestInit = { method, credentials: 'include', headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await send(withQuery(`${API_BASE}${path}`, query), init);
  const parsed = parseBody(await res.text());
  if (!res.ok) throw failure(res.status, parsed);
  return parsed as T;
}

const UNREACHABLE = 'The server cannot be reached. Check your connection and try again.';

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new ApiError(0, null, UNREACHABLE);
  }
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function failure(status: number, body: unknown): ApiError {
  return new ApiError(status, body, messageForError(body, status === 404 ? 'Not found' : statusCategory(status)));
}

/** A file the server sent: its content and the name its Content-Disposition gave, if any. */
export type DownloadedFile = { blob: Blob; fileName: string | null };

/**
 * GETs a file the server streams (a CSV…) asking for `accept`, with the session cookie like every
 * call; answers its content and name, or throws ApiError with the server's message.
 */
export async function apiDownload(path: string, query: Query | undefined, accept: string): Promise<DownloadedFile> {
  const res = await send(withQuery(`${API_BASE}${path}`, query), { method: 'GET', credentials: 'include', headers: { accept } });
  if (!res.ok) throw failure(res.status, parseBody(await res.text()));
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch {
    throw new ApiError(0, null, UNREACHABLE);
  }
  return { blob, fileName: fileNameFromDisposition(res.headers.get('content-disposition')) };
}

/**
 * The file name of a Content-Disposition header (`filename*=UTF-8''…` preferred over
 * `filename="…"`), reduced to a plain name (no folders, no control characters); null when absent.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain ? (plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1').trim() : null;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = name?.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, '').trim() ?? '';
  return clean && clean !== '.' && clean !== '..' ? clean : null;
}

/** What `apiUpload` sends: a multipart form to a path under /api/v1, telling how much has gone. */
export type UploadRequest = {
  path: string;
  query?: Query;
  form: FormData;
  /**
   * Percent of the request body sent, 0 to 99, from the browser's upload progress events; 100 is
   * left for the server's answer, since the last byte sent is not yet a stored file.
   */
  onProgress?: (percent: number) => void;
  /** Aborts the request (the promise then rejects). */
  signal?: AbortSignal;
};

/** The ceiling of `onProgress` until the server has answered. */
const SENT_PERCENT_MAX = 99;
const UPLOAD_INTERRUPTED = 'The upload was interrupted. Check your connection and try again.';

/**
 * POSTs a multipart form with the session cookie, like every call, through XMLHttpRequest: fetch
 * reports no upload progress. Answers the parsed JSON or throws ApiError with the server's message
 * (a 413 without one says the upload is too large).
 */
export function apiUpload<T>({ path, query, form, onProgress, signal }: UploadRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', withQuery(`${API_BASE}${path}`, query));
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(SENT_PERCENT_MAX, Math.floor((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      // A proxy in front of the server may refuse a large body with a page of its own.
      else if (xhr.status === 413 && !messageForError(body, '')) reject(new ApiError(413, body, ERROR_MESSAGES.PayloadTooLarge));
      else reject(failure(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, null, UPLOAD_INTERRUPTED));
    const cancelled = () => new ApiError(0, null, 'The upload was cancelled.');
    xhr.onabort = () => reject(cancelled());
    if (signal?.aborted) {
      reject(cancelled());
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export const api = {
  get: <T>(path: string, query?: Query) => apiFetch<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, query?: Query) => apiFetch<T>('POST', path, body ?? {}, query),
  put: <T>(path: string, body?: unknown) => apiFetch<T>('PUT', path, body ?? {}),
  delete: <T>(path: string, query?: Query) => apiFetch<T>('DELETE', path, undefined, query),
};
