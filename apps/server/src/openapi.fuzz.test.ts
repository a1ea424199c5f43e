import { once } from 'node:events';
import fc from 'fast-check';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { ClientMessageSchema, ManifestSchema, SdkMessageSchema } from '@plinth/shared';
import { createExhibit, createHardware, createOrganization, createSite, createWorld, signUpWith } from './test/factories.js';
import { openExhibitSocket } from './test/exhibit-socket.js';
import { waitUntil } from './test/hardware-kit.js';
import {
  inlineRefs,
  listOperations,
  mutationsOf,
  requestFor,
  valueFor,
  type Caller,
  type FuzzContext,
  type FuzzRequest,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from './test/openapi-fuzz.js';
import type { TestClient } from './test/test-client.js';
import { startTestServer, type TestServer } from './test/test-server.js';

/**
 * A property-based fuzz of every operation of the OpenAPI description: schema-shaped and hostile
 * params, query strings and bodies (NUL, lone surrogates, huge numbers, wrong types, arrays for
 * strings, deep objects, unknown ids, path params that are not UUIDs, bodies that are not JSON),
 * sent by a platform admin, a viewer and a signed-out caller. No answer may be 500 or above, and
 * the server must still answer afterwards. The exhibit SDK socket and the console socket get the
 * same treatment from their message schemas: no message may fail ("could not be handled").
 *
 * FUZZ_SEED reproduces a run (each run prints its seed); FUZZ_RUNS sets the requests per
 * operation, and four times that many messages per socket (25 in `npm test`; `npm run fuzz`
 * runs 300); FUZZ_SHRINK=1 makes fast-check shrink a failing request to a smaller one (slower;
 * off by default, the failing request is printed whole).
 */
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 25);

/**
 * Operations no signed-in caller of the fuzz sends, because they would end the fuzz itself rather
 * than find a fault: POST /auth/logout ends the session, so every later request of that caller
 * would be a signed-out one. It is still fuzzed, signed out (see callerFor).
 */
const SIGNED_OUT_ONLY = new Set(['POST /api/v1/auth/logout']);

let issuer: OAuth2Server;
let server: TestServer;
let cookies: Record<Caller, string>;
let context: FuzzContext;
let operations: Operation[];
let admin: TestClient;
/** How many answers of each status the fuzz got, printed at the end: a run of only 400s reaches nothing. */
const statuses = new Map<number, number>();

/** A manifest with every kind of item, so setting, list and control routes have something to find. */
const MANIFEST = {
  statuses: [{ id: 'ip_address', order: 1 }, { id: 'count', type: 'Integer', display: 'Visitors' }],
  controls: [{ id: 'reload', order: 2 }, { id: 'volume', type: 'Group', items: [{ id: 'up', order: 1 }, { id: 'down' }] }],
  settings: [
    { id: 'kiosk_name', type: 'TextInput', default: 'Lobby', order: 3 },
    { id: 'idle', type: 'IntegerInput', default: 30, min: 5, max: 600 },
    { id: 'mode', type: 'Dropdown', items: [{ id: 'kids' }, { id: 'adults' }], enabledOpMode: 'On' },
    { id: 'hero', type: 'StrapiContent', contentType: 'article' },
  ],
  settingLists: [
    { id: 'scenes', order: 4, settings: [{ id: 'duration', type: 'IntegerInput', default: 10 }], defaultItems: [{ listName: 'Intro', values: { duration: 5 } }] },
  ],
  settingGroups: [{ id: 'audio', order: 5, settings: [{ id: 'muted', type: 'Toggle' }] }],
};

beforeAll(async () => {
  // Single sign-on configured against a local issuer, so its routes run their real code.
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(0, '127.0.0.1');
  server = await startTestServer({ GOOGLE_CLIENT_ID: 'plinth-fuzz', GOOGLE_CLIENT_SECRET: 'plinth-fuzz', OIDC_ISSUER_URL: issuer.issuer.url! });
  const signedUp = await server.signUp({ isPlatformAdmin: true });
  admin = signedUp.client;
  const world = await createWorld(server);
  const viewer = await signUpWith(server, ['organization', world.org.id, 'VIEWER']);
  const board = await createHardware(server.deps.db, world.siteA.id);
  const sdk = await openExhibitSocket(server, admin, world.exhibit.id);
  sdk.send({ type: 'manifest', requestId: 'fuzz', manifest: MANIFEST });
  await sdk.waitFor((m) => m.type === 'manifest.ok');
  sdk.close();
  const hardwareToken = (await admin.post('/auth/hardware', { name: 'fuzz', hardwareId: board.id })).body;
  cookies = { admin: admin.cookieHeader, viewer: viewer.client.cookieHeader, anonymous: '' };
  context = {
    knownIds: [world.org.id, world.siteA.id, world.siteB.id, world.exhibit.id, world.other.id, world.otherSite.id, board.id, hardwareToken.id, ...viewer.grantIds],
    knownNames: ['ip_address', 'kiosk_name', 'idle', 'mode', 'hero', 'scenes', 'Intro', 'reload', 'volume', 'up', 'support_contact', 'time_zone', 'site_location', 'relay1', 'state', 'reboot', 'identify', 'get', 'a.gbm4', 'a.gbm0'],
  };
  const document = (await server.client().get<OpenApiDocument>('/api/docs/json')).body;
  operations = listOperations(document);
  console.log(`openapi fuzz: seed ${seed}, ${runsPerOperation} requests for each of ${operations.length} operations (FUZZ_SEED=${seed} reproduces)`);
});
afterAll(async () => {
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  console.log(`openapi fuzz answers: ${counts.join(', ')}`);
  await server?.stop();
  await issuer?.stop();
});

/** Who sends the request: as generated, but a route that would end the fuzz's own sessions is sent signed out. */
function callerFor(op: Operation, request: FuzzRequest): Caller {
  return SIGNED_OUT_ONLY.has(`${op.method} ${op.path}`) ? 'anonymous' : request.caller;
}

async function send(op: Operation, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  const cookie = cookies[callerFor(op, request)];
  if (cookie) headers.cookie = cookie;
  if (request.body) headers['content-type'] = request.body.contentType;
  const res = await fetch(`${server.url}${request.url}`, {
    method: request.method,
    headers,
    body: request.body?.text,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return { status: res.status, text: (await res.text()).slice(0, 300) };
}

/** The JSON Schema of a socket message schema, with the manifest's own schema where a manifest goes. */
function messageSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const manifest = inlineRefs(z.toJSONSchema(ManifestSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  const withManifest = (variant: JsonSchema): JsonSchema =>
    variant.properties?.manifest ? { ...variant, properties: { ...variant.properties, manifest: { anyOf: [manifest, { type: 'object', properties: { manifest } }] } } } : variant;
  return { ...json, oneOf: json.oneOf?.map(withManifest) };
}

/**
 * Sends each generated message, then a ping; every message must be answered in order (the pong
 * comes back) and none with the socket's "could not be handled", its 500.
 */
/**
 * fast-check's own report prints the whole counterexample, which overflows the stack on deeply
 * nested values (and hid the first fault the socket fuzz found): report the property's error,
 * which names the request cut short, with the seed and path that replay it.
 */
function reportFailure<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'no error');
  throw new Error(`fuzz failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath ?? '-'}): ${error}`);
}

async function fuzzSocket(socket: WebSocket, messages: fc.Arbitrary<unknown>, offset: number): Promise<void> {
  const received: { type: string; message?: string }[] = [];
  socket.on('message', (raw) => received.push(JSON.parse(raw.toString())));
  await fc.assert(
    fc.asyncProperty(messages, async (message) => {
      const from = received.length;
      socket.send(JSON.stringify(message));
      socket.send(JSON.stringify({ type: 'ping' }));
      await waitUntil(() => received.slice(from).some((m) => m.type === 'pong'), 'the pong after a fuzzed message');
      const failed = received.slice(from).find((m) => m.type === 'error' && /could not be handled/.test(m.message ?? ''));
      if (failed) throw new Error(`${JSON.stringify(message).slice(0, 500)} was answered: ${failed.message}`);
    }),
    { seed: seed + offset, numRuns: runsPerOperation * 4, endOnFailure: process.env.FUZZ_SHRINK !== '1', reporter: reportFailure },
  );
  expect(socket.readyState).toBe(WebSocket.OPEN);
}

describe('fuzzing every operation of the OpenAPI description', () => {
  it('never answers 500 or above, and the server keeps answering', { timeout: 60_000 + runsPerOperation * 20_000 }, async () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const [index, op] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, context), async (request) => {
          const res = await send(op, request);
          if (res.status >= 500) {
            throw new Error(`${request.method} ${request.url} (${callerFor(op, request)}) answered ${res.status}: ${res.text}`);
          }
        }),
        { seed: seed + index, numRuns: runsPerOperation, endOnFailure: process.env.FUZZ_SHRINK !== '1', reporter: reportFailure },
      );
      const alive = await server.client().get('/config');
      expect(alive.status, `the server after ${op.method} ${op.path}`).toBe(200);
    }
  });
});

describe('fuzzing the sockets with their own message schemas', () => {
  it('handles every exhibit SDK message: an answer or an error naming the problem, never a failure', { timeout: 60_000 + runsPerOperation * 4_000 }, async () => {
    // A fresh exhibit: the REST fuzz may have deleted the world's.
    const site = await createSite(server.deps.db, (await createOrganization(server.deps.db)).id);
    const sdk = await openExhibitSocket(server, admin, (await createExhibit(server.deps.db, site.id)).id);
    const manifests = fc.record({ type: fc.constant('manifest'), requestId: fc.constant('fuzz'), manifest: mutationsOf(MANIFEST) });
    await fuzzSocket(sdk.socket, fc.oneof(valueFor(messageSchema(SdkMessageSchema), context), manifests), 10_000);
    sdk.close();
  });

  it('handles every console socket message the same way', { timeout: 60_000 + runsPerOperation * 4_000 }, async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: cookies.admin } });
    await once(socket, 'open');
    await fuzzSocket(socket, valueFor(messageSchema(ClientMessageSchema), context), 20_000);
    socket.close();
  });
});
