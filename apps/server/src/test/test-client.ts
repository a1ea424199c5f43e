import { SESSION_COOKIE } from '@plinth/shared';

export type TestResponse<T = any> = { status: number; body: T; headers: Headers };

/** An HTTP client with its own cookie jar, as one browser would be. */
export class TestClient {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get sessionToken(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path.startsWith('/api') || path.startsWith('/ws') ? '' : '/api/v1'}${path}`;
    const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
    if (this.cookies.size) (init.headers as Record<string, string>).cookie = this.cookieHeader;
    if (body !== undefined) {
      if (body instanceof FormData) init.body = body;
      else {
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
    }
    const res = await fetch(url, init);
    for (const raw of res.headers.getSetCookie()) {
      const [pair, ...attrs] = raw.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
