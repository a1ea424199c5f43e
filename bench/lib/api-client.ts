/** A minimal JSON client for /api/v1 with one session cookie; throws on any non-2xx answer. */
export type ApiClient = <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<T>;

/** Calls the REST API of `baseUrl` as the user whose `cookie` header is given. */
export function createApiClient(baseUrl: string, cookie: string): ApiClient {
  return async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}
