import { messageForError, statusCategory } from '@plinth/shared';

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
  let res: Response;
  try {
    res = await fetch(withQuery(`${API_BASE}${path}`, query), init);
  } catch {
    throw new ApiError(0, null, 'The server cannot be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    throw new ApiError(res.status, parsed, messageForError(parsed, res.status === 404 ? 'Not found' : statusCategory(res.status)));
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => apiFetch<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, query?: Query) => apiFetch<T>('POST', path, body ?? {}, query),
  put: <T>(path: string, body?: unknown) => apiFetch<T>('PUT', path, body ?? {}),
  delete: <T>(path: string, query?: Query) => apiFetch<T>('DELETE', path, undefined, query),
};
