import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiDownload, fileNameFromDisposition } from './api-client';

afterEach(() => vi.unstubAllGlobals());

describe('fileNameFromDisposition', () => {
  it('reads the quoted and the plain file name', () => {
    expect(fileNameFromDisposition('attachment; filename="exhibit-logs-1-20260314-160509.csv"')).toBe('exhibit-logs-1-20260314-160509.csv');
    expect(fileNameFromDisposition('attachment; filename=logs.csv')).toBe('logs.csv');
    expect(fileNameFromDisposition('attachment; filename="a \\"quoted\\" name.csv"')).toBe('a "quoted" name.csv');
  });

  it('prefers the encoded filename*', () => {
    expect(fileNameFromDisposition(`attachment; filename="plain.csv"; filename*=UTF-8''caf%C3%A9.csv`)).toBe('café.csv');
  });

  it('keeps only a plain name, and answers null when there is none', () => {
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('attachment; filename="a\\\\b\u0007.csv"')).toBe('b.csv');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition('attachment; filename=".."')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('apiDownload', () => {
  it('asks for the type with the session cookie and answers the content and the name', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response('a,b\n', { headers: { 'content-disposition': 'attachment; filename="x.csv"' } });
    });
    const file = await apiDownload('/logging/exhibit/csv', { id: 'e1', start: 1, end: 2 }, 'text/csv');
    expect(seen[0]!.url).toBe('/api/v1/logging/exhibit/csv?id=e1&start=1&end=2');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(new Headers(seen[0]!.init.headers).get('accept')).toBe('text/csv');
    expect(file.fileName).toBe('x.csv');
    expect(await file.blob.text()).toBe('a,b\n');
  });

  it('throws the server message of a failure', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ response: 'end: must not be before start', code: 'ValidationError' }), { status: 400 }));
    const failure = await apiDownload('/logging/exhibit/csv', {}, 'text/csv').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(400);
    expect((failure as ApiError).message).toBe('end: must not be before start');
  });
});
