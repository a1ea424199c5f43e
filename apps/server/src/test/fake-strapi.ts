import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small real HTTP server that answers like Strapi's REST API (v4 or v5), standing in for an
 * organization's external content manager in tests: the admin and API sign-ins, collections
 * with pagination and sorting, one entry, the upload plugin's media library and the uploaded
 * files (with byte ranges). Switches make each area unreachable, slow, wrong or refusing.
 *
 * The server listens on 127.0.0.1 by default. Plinth's outbound rules refuse loopback, so a test
 * server must allow its `host` (`startTestServer({}, { allowLoopbackHosts: [fake.host] })`); a
 * server in another process needs `host` set to an address of the machine on a private network
 * and OUTBOUND_ALLOW_PRIVATE=1.
 */

/** One entry of a collection; `documentId` is made up for Strapi v5 when it is missing. */
export type FakeStrapiEntry = { id: number; documentId?: string } & Record<string, unknown>;

/** A file of the media library. */
export type FakeStrapiFile = {
  name: string;
  content: Buffer | string;
  mime?: string;
  /** ISO; default the time it was added. */
  updatedAt?: string;
  /** Where the library says it is: '/uploads/<hash><ext>' by default (Strapi's local provider); `absolute` gives the same address with the server's origin, as cloud providers give theirs. */
  url?: string;
  absolute?: boolean;
};

/** How an area answers when it is not 'ok'. */
export type FakeStrapiFailure =
  /** The connection is reset without an answer. */
  | 'unreachable'
  /** Never answers (until the fake closes). */
  | 'slow'
  /** JSON Strapi would never send. */
  | 'wrongShape'
  /** An HTML page. */
  | 'notJson'
  /** 401 for the sign-ins, 403 for reads (a role without the right). */
  | 'refuse'
  /** HTTP 500. */
  | 'serverError';

/** The areas a failure can be switched on for. */
export type FakeStrapiArea = 'auth' | 'admin' | 'content' | 'library' | 'uploads';

/** One request the fake received. */
export type FakeStrapiCall = { method: string; path: string; query: string; authorization: string | null; range: string | null; body: unknown };

export type FakeStrapiOptions = {
  /** Strapi's REST format: 4 (`{id, attributes}`) or 5 (flat, with `documentId`); default 4. */
  version?: 4 | 5;
  /** The address to listen on; default 127.0.0.1. */
  host?: string;
  /** The API user (POST /api/auth/local); default api-user / Ap1-pass. */
  apiUser?: { identifier: string; password: string };
  /** The admin (POST /admin/login); default cms-admin@example.com / Adm1n-pass. */
  admin?: { email: string; password: string };
};

export type FakeStrapi = {
  /** http://host:port (no trailing slash). */
  url: string;
  /** host:port, for `allowLoopbackHosts`. */
  host: string;
  version: 4 | 5;
  /** Every request, in order. */
  calls: FakeStrapiCall[];
  /** Failures by area; an area not listed answers normally. */
  failures: Partial<Record<FakeStrapiArea, FakeStrapiFailure>>;
  /** Whether /uploads/ honours Range (Strapi's own local provider does not; storage providers do). */
  rangeSupport: boolean;
  /** How long the API sign-in (POST /api/auth/local) takes to answer, in ms; default 0. */
  signInDelayMs: number;
  /** Replaces the entries of a collection by its plural name (e.g. 'articles'). */
  setEntries: (plural: string, entries: FakeStrapiEntry[]) => void;
  /** Replaces the media library. */
  setFiles: (files: FakeStrapiFile[]) => void;
  /** The jwts issued so far stop being accepted (401), as after a Strapi restart with a new secret. */
  revokeJwts: () => void;
  /** The document id the fake gives an entry in v5 when it has none. */
  documentIdOf: (entry: FakeStrapiEntry) => string;
  /** The absolute address the fake serves a library file at (by its name; the last of that name). */
  fileUrl: (name: string) => string;
  close: () => Promise<void>;
};

type StoredFile = { id: number; name: string; hash: string; ext: string; mime: string; content: Buffer; updatedAt: string; url: string };

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': JSON_TYPE });
  res.end(JSON.stringify(body));
}

function strapiError(res: http.ServerResponse, status: number, name: string, message: string): void {
  send(res, status, { data: null, error: { status, name, message, details: {} } });
}

/** Answers the area's failure and says so; false when the area is ok. */
function fail(res: http.ServerResponse, failure: FakeStrapiFailure | undefined, isSignIn: boolean): boolean {
  switch (failure) {
    case undefined:
      return false;
    case 'unreachable':
      res.socket?.destroy();
      return true;
    case 'slow':
      return true;
    case 'wrongShape':
      send(res, 200, { unexpected: true, items: 'none' });
      return true;
    case 'notJson':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to nginx!</body></html>');
      return true;
    case 'refuse':
      if (isSignIn) strapiError(res, 400, 'ValidationError', 'Invalid identifier or password');
      else strapiError(res, 403, 'ForbiddenError', 'Forbidden');
      return true;
    case 'serverError':
      strapiError(res, 500, 'InternalServerError', 'Internal Server Error');
      return true;
  }
}

/** Starts a fake Strapi on an ephemeral port. */
export async function startFakeStrapi(options: FakeStrapiOptions = {}): Promise<FakeStrapi> {
  const apiUser = options.apiUser ?? { identifier: 'api-user', password: 'Ap1-pass' };
  const admin = options.admin ?? { email: 'cms-admin@example.com', password: 'Adm1n-pass' };
  const collections = new Map<string, FakeStrapiEntry[]>();
  let files: StoredFile[] = [];
  const jwts = new Set<string>();
  let jwtCounter = 0;
  const server = http.createServer();
  const fake: FakeStrapi = {
    url: '',
    host: '',
    version: options.version ?? 4,
    calls: [],
    failures: {},
    rangeSupport: true,
    signInDelayMs: 0,
    setEntries: (plural, entries) => collections.set(plural, entries.map((e) => ({ ...e }))),
    setFiles: (list) => {
      files = list.map((file, index) => storedFile(fake, file, index + 1));
    },
    revokeJwts: () => jwts.clear(),
    documentIdOf: (entry) => entry.documentId ?? `doc${String(entry.id).padStart(6, '0')}`,
    fileUrl: (name) => {
      const file = files.findLast((f) => f.name === name);
      if (!file) throw new Error(`The fake Strapi has no file ${name}`);
      return new URL(file.url, fake.url).href;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const context: HandlerContext = { fake, apiUser, admin, collections, files: () => files, jwts, nextJwt: () => `fake-jwt-${++jwtCounter}` };
  server.on('request', (req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => handle(context, { req, res, raw }));
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  fake.host = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  fake.url = `http://${fake.host}`;
  return fake;
}

function storedFile(fake: FakeStrapi, file: FakeStrapiFile, id: number): StoredFile {
  const content = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content);
  const dot = file.name.lastIndexOf('.');
  const ext = dot > 0 ? file.name.slice(dot) : '';
  const hash = `${file.name.slice(0, dot > 0 ? dot : undefined).replace(/[^A-Za-z0-9]+/g, '_')}_${createHash('sha1').update(content).digest('hex').slice(0, 10)}`;
  const path = `/uploads/${hash}${ext}`;
  return {
    id,
    name: file.name,
    hash,
    ext,
    mime: file.mime ?? 'application/octet-stream',
    content,
    updatedAt: file.updatedAt ?? new Date().toISOString(),
    url: file.url ?? (file.absolute ? `${fake.url}${path}` : path),
  };
}

type HandlerContext = {
  fake: FakeStrapi;
  apiUser: { identifier: string; password: string };
  admin: { email: string; password: string };
  collections: Map<string, FakeStrapiEntry[]>;
  files: () => StoredFile[];
  jwts: Set<string>;
  nextJwt: () => string;
};

type Exchange = { req: http.IncomingMessage; res: http.ServerResponse; raw: string };

function parseBody(raw: string): unknown {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
  }
}

function handle(context: HandlerContext, { req, res, raw }: Exchange): void {
  const { fake } = context;
  const url = new URL(req.url ?? '/', 'http://fake');
  const body = parseBody(raw);
  fake.calls.push({
    method: req.method ?? '',
    path: url.pathname,
    query: decodeURIComponent(url.search),
    authorization: req.headers.authorization ?? null,
    range: req.headers.range ?? null,
    body,
  });
  const path = url.pathname;
  if (req.method === 'POST' && path === '/api/auth/local') {
    if (fake.signInDelayMs > 0) setTimeout(() => signInApi(context, res, body), fake.signInDelayMs);
    else signInApi(context, res, body);
    return;
  }
  if (req.method === 'POST' && path === '/admin/login') return signInAdmin(context, res, body);
  if (req.method === 'GET' && path.startsWith('/uploads/')) return serveUpload(context, req, res);
  if (req.method !== 'GET' || !path.startsWith('/api/')) return strapiError(res, 404, 'NotFoundError', 'Not Found');
  const area: FakeStrapiArea = path === '/api/upload/files' ? 'library' : 'content';
  if (fail(res, fake.failures[area], false)) return;
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !context.jwts.has(token)) return strapiError(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
  if (area === 'library') return send(res, 200, context.files().map(presentFile));
  const [, , plural, id] = path.split('/');
  const entries = context.collections.get(decodeURIComponent(plural ?? ''));
  if (!entries) return strapiError(res, 404, 'NotFoundError', 'Not Found');
  if (id !== undefined) return serveEntry(context, res, { entries, id: decodeURIComponent(id) });
  return serveCollection(context, res, { entries, query: url.searchParams });
}

function signInApi(context: HandlerContext, res: http.ServerResponse, body: unknown): void {
  if (fail(res, context.fake.failures.auth, true)) return;
  const given = body as { identifier?: unknown; password?: unknown } | null;
  if (given?.identifier !== context.apiUser.identifier || given?.password !== context.apiUser.password) {
    return strapiError(res, 400, 'ValidationError', 'Invalid identifier or password');
  }
  const jwt = context.nextJwt();
  context.jwts.add(jwt);
  send(res, 200, { jwt, user: { id: 1, username: context.apiUser.identifier } });
}

function signInAdmin(context: HandlerContext, res: http.ServerResponse, body: unknown): void {
  if (fail(res, context.fake.failures.admin, true)) return;
  const given = body as { email?: unknown; password?: unknown } | null;
  if (given?.email !== context.admin.email || given?.password !== context.admin.password) {
    return strapiError(res, 400, 'ApplicationError', 'Invalid credentials');
  }
  send(res, 200, { data: { token: `admin-token-${context.nextJwt()}`, user: { id: 1, email: context.admin.email } } });
}

/** An entry as the configured Strapi version answers it. */
function presentEntry(fake: FakeStrapi, entry: FakeStrapiEntry): Record<string, unknown> {
  const { id, documentId: _documentId, ...fields } = entry;
  if (fake.version === 5) return { id, documentId: fake.documentIdOf(entry), ...fields };
  return { id, attributes: fields };
}

function serveCollection(context: HandlerContext, res: http.ServerResponse, { entries, query }: { entries: FakeStrapiEntry[]; query: URLSearchParams }): void {
  const page = Math.max(1, Number(query.get('pagination[page]') ?? 1) || 1);
  const pageSize = Math.max(1, Math.min(100, Number(query.get('pagination[pageSize]') ?? 25) || 25));
  const [field, direction] = (query.get('sort') ?? 'id:asc').split(':');
  const key = field ?? 'id';
  const sorted = [...entries].sort((a, b) => {
    const order = (a[key] as number | string) < (b[key] as number | string) ? -1 : (a[key] as number | string) > (b[key] as number | string) ? 1 : 0;
    return direction === 'desc' ? -order : order;
  });
  const data = sorted.slice((page - 1) * pageSize, page * pageSize).map((e) => presentEntry(context.fake, e));
  const total = entries.length;
  send(res, 200, { data, meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } } });
}

function serveEntry(context: HandlerContext, res: http.ServerResponse, { entries, id }: { entries: FakeStrapiEntry[]; id: string }): void {
  const { fake } = context;
  const entry = entries.find((e) => (fake.version === 5 ? fake.documentIdOf(e) === id : String(e.id) === id));
  if (!entry) return strapiError(res, 404, 'NotFoundError', 'Not Found');
  send(res, 200, { data: presentEntry(fake, entry), meta: {} });
}

/** A media-library file as the upload plugin lists it (size in kB with two decimals). */
function presentFile(file: StoredFile): Record<string, unknown> {
  return {
    id: file.id,
    name: file.name,
    alternativeText: null,
    caption: null,
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    size: Math.round((file.content.length / 1000) * 100) / 100,
    url: file.url,
    provider: 'local',
    createdAt: file.updatedAt,
    updatedAt: file.updatedAt,
  };
}

function serveUpload(context: HandlerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (fail(res, context.fake.failures.uploads, false)) return;
  const path = new URL(req.url ?? '/', 'http://fake').pathname;
  const file = context.files().find((f) => f.url.endsWith(path));
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return void res.end('Not Found');
  }
  const size = file.content.length;
  const match = context.fake.rangeSupport ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') : null;
  if (!match) {
    res.writeHead(200, { 'content-type': file.mime, 'content-length': String(size), 'accept-ranges': context.fake.rangeSupport ? 'bytes' : 'none' });
    return void res.end(file.content);
  }
  const start = Number(match[1]);
  const end = Math.min(match[2] ? Number(match[2]) : size - 1, size - 1);
  if (start >= size || end < start) {
    res.writeHead(416, { 'content-range': `bytes */${size}` });
    return void res.end();
  }
  res.writeHead(206, { 'content-type': file.mime, 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` });
  res.end(file.content.subarray(start, end + 1));
}
