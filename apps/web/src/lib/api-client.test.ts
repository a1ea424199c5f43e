import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubXhr } from '../test/fake-xhr';
import { ApiError, apiDownload, apiUpload, fileNameFromDisposition } from './api-client';
import { readBlobText } from '../test/read-blob-text';

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
    expect(await readBlobText(file.blob)).toBe('a,b\n');
  });

  it('throws the server message of a failure', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ response: 'end: must not be before start', code: 'ValidationError' }), { status: 400 }));
    const failure = await apiDownload('/logging/exhibit/csv', {}, 'text/csv').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(400);
    expect((failure as ApiError).message).toBe('end: must not be before start');
  });
});

describe('apiUpload', () => {
  const form = () => {
    const data = new FormData();
    data.append('file', new File(['abc'], 'a.mp4'), 'a.mp4');
    return data;
  };

  it('posts the form with the session cookie, reports the share sent up to 99 and answers the body', async () => {
    const requests = stubXhr();
    const seen: number[] = [];
    const answer = apiUpload<{ files: string[] }>({ path: '/content/files/upload', query: { exhibitId: 'e1', siteId: 's1' }, form: form(), onProgress: (p) => seen.push(p) });
    const xhr = requests[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/v1/content/files/upload?exhibitId=e1&siteId=s1');
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.fileName).toBe('a.mp4');
    xhr.progress(0, 200);
    xhr.progress(101, 200);
    xhr.progress(200, 200);
    expect(seen).toEqual([0, 50, 99]);
    xhr.respond(200, { files: ['a.mp4'] });
    await expect(answer).resolves.toEqual({ files: ['a.mp4'] });
  });

  it("rejects with the server's message, and names a 413 that has none", async () => {
    const requests = stubXhr();
    const refused = apiUpload({ path: '/content/files/upload', form: form() }).catch((e: unknown) => e);
    requests[0]!.respond(400, { response: 'Filename may not begin with "[ORG]"', code: 'BadRequest' });
    expect(await refused).toMatchObject({ status: 400, message: 'Filename may not begin with "[ORG]"' });

    const tooLarge = apiUpload({ path: '/content/files/upload', form: form() }).catch((e: unknown) => e);
    requests[1]!.respond(413, '<html>413 Request Entity Too Large</html>');
    expect(await tooLarge).toMatchObject({ status: 413, message: 'The upload is too large.' });
  });

  it('rejects when the connection drops or the caller aborts', async () => {
    const requests = stubXhr();
    const dropped = apiUpload({ path: '/x', form: form() }).catch((e: unknown) => e);
    requests[0]!.fail();
    expect(await dropped).toMatchObject({ status: 0, message: expect.stringMatching(/interrupted/) });

    const controller = new AbortController();
    const aborted = apiUpload({ path: '/x', form: form(), signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(requests[1]!.isAborted).toBe(true);
    expect(await aborted).toBeInstanceOf(ApiError);
  });
});
