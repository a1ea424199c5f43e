import { vi } from 'vitest';

type Listener = ((event: ProgressEvent) => void) | null;

/**
 * A stand-in for the browser's XMLHttpRequest (jsdom sends real requests and reports upload
 * progress only at the end): records each request, and lets the test report upload progress and
 * answer it, as a browser would for a slow upload.
 */
export class FakeXhr {
  static readonly requests: FakeXhr[] = [];
  method = '';
  url = '';
  withCredentials = false;
  body: FormData | null = null;
  status = 0;
  responseText = '';
  isAborted = false;
  readonly upload: { onprogress: Listener } = { onprogress: null };
  onload: Listener = null;
  onerror: Listener = null;
  onabort: Listener = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.isAborted = true;
    this.onabort?.(new ProgressEvent('abort'));
  }

  /** The name of the first file of the multipart body. */
  get fileName(): string | undefined {
    const file = this.body?.get('file');
    return file instanceof File ? file.name : undefined;
  }
  /** The browser has sent `loaded` bytes of `total`. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  /** The server answers. */
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.(new ProgressEvent('load'));
  }
  /** The connection dropped. */
  fail() {
    this.onerror?.(new ProgressEvent('error'));
  }
}

/** Replaces XMLHttpRequest until `vi.unstubAllGlobals()`; answers the list of requests made. */
export function stubXhr(): FakeXhr[] {
  FakeXhr.requests.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr.requests;
}
