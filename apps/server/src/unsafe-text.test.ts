import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { exhibits, organizations } from './db/schema.js';
import { openExhibitSocket } from './test/exhibit-socket.js';
import { createWorld, createHardware } from './test/factories.js';
import { captureLogs, type LogCapture } from './test/log-capture.js';
import type { TestClient } from './test/test-client.js';
import { startTestServer, type TestServer } from './test/test-server.js';

/** Text PostgreSQL cannot store, each with a marker that must never reach a log line. */
const MARKER = 'SUBMITTED-VALUE-7d1f';
const UNSAFE = [
  { kind: 'a NUL character', text: `${MARKER} a\u0000b`, problem: /must not contain a NUL character/ },
  { kind: 'a lone surrogate', text: `${MARKER} a\ud800b`, problem: /must not contain a lone surrogate/ },
];

let server: TestServer;
let logs: LogCapture;
let admin: TestClient;
let world: Awaited<ReturnType<typeof createWorld>>;
let hardwareId: string;

beforeAll(async () => {
  logs = captureLogs('debug');
  server = await startTestServer({ LOG_LEVEL: 'debug' }, { logger: logs.logger });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  world = await createWorld(server);
  hardwareId = (await createHardware(server.deps.db, world.siteA.id)).id;
});
afterAll(async () => {
  await server?.stop();
});

/** Requests that each carry `text` in one field; `field` is how the 400 must name it. */
function probes(text: string): { method: string; path: string; body?: unknown; field: string }[] {
  const { org, siteA, exhibit } = world;
  return [
    { method: 'POST', path: '/org-management/organization', body: { name: text }, field: 'name' },
    { method: 'PUT', path: `/org-management/organization/${org.id}`, body: { name: text }, field: 'name' },
    { method: 'PUT', path: `/org-management/organization/${org.id}/setting/support_contact`, body: { value: text }, field: 'value' },
    { method: 'POST', path: '/org-management/site', body: { name: text, organizationId: org.id }, field: 'name' },
    { method: 'PUT', path: `/org-management/site/${siteA.id}`, body: { name: text }, field: 'name' },
    { method: 'PUT', path: `/org-management/site/setting/${siteA.id}/site_location`, body: { value: text }, field: 'value' },
    { method: 'POST', path: '/exhibit-management/exhibit', body: { name: text, siteId: siteA.id }, field: 'name' },
    { method: 'PUT', path: `/exhibit-management/exhibit/${exhibit.id}`, body: { name: text }, field: 'name' },
    { method: 'POST', path: `/exhibit-management/exhibit/${exhibit.id}/setting/kiosk`, body: { value: text }, field: 'value' },
    { method: 'POST', path: `/exhibit-management/exhibit/${exhibit.id}/settinglist/scenes/settinglistitem`, body: { listName: text }, field: 'listName' },
    { method: 'POST', path: '/auth/exhibit', body: { name: text, exhibitId: exhibit.id }, field: 'name' },
    { method: 'POST', path: '/hardware-mgmt/hardware', body: { name: text, siteId: siteA.id }, field: 'name' },
    { method: 'PUT', path: `/hardware-mgmt/hardware/${hardwareId}`, body: { name: text }, field: 'name' },
    { method: 'POST', path: '/auth/hardware', body: { name: text, hardwareId }, field: 'name' },
    {
      method: 'POST',
      path: '/hardware-mgmt/firmware',
      body: { hardwareId, isPlinthFirmware: false, fileName: 'a.gbm4', name: text, version: '1.0' },
      field: 'name',
    },
    { method: 'POST', path: '/support/ticket', body: { subject: 'Help', description: text }, field: 'description' },
    { method: 'POST', path: '/auth/user/login', body: { email: 'nobody@example.com', password: text }, field: 'password' },
    { method: 'POST', path: '/auth/user/check-reset-password', body: { resetUrlId: text }, field: 'resetUrlId' },
    { method: 'POST', path: '/auth/user/change-password', body: { password: 'Passw0rd!', resetUrlId: text }, field: 'resetUrlId' },
    { method: 'POST', path: '/org-management/organization', body: { name: 'Fine', extra: { [text]: 1 } }, field: 'extra.' },
  ];
}

/** Requests that carry `text` in the query string (a URL carries UTF-8, so no lone surrogate). */
function queryProbes(text: string): { method: string; path: string; body?: unknown; field: string }[] {
  const q = encodeURIComponent(text);
  const { siteA } = world;
  return [
    { method: 'DELETE', path: `/content/firmware?hardwareId=${hardwareId}&siteId=${siteA.id}&firmware=${q}`, field: 'firmware' },
    { method: 'GET', path: `/hardware-mgmt/firmware?hardwareId=${q}`, field: 'hardwareId' },
  ];
}

describe('text PostgreSQL cannot store', () => {
  for (const { kind, text, problem } of UNSAFE) {
    it(`answers 400 naming the field for ${kind} in a body or a query, on every route`, async () => {
      const failures: string[] = [];
      const all = text.includes('\u0000') ? [...probes(text), ...queryProbes(text)] : probes(text);
      for (const probe of all) {
        const res = await admin.request(probe.method, probe.path, probe.body);
        const ok =
          res.status === 400 &&
          res.body?.code === 'ValidationError' &&
          typeof res.body.message === 'string' &&
          res.body.message.startsWith(probe.field) &&
          problem.test(res.body.message);
        if (!ok) {
          failures.push(`${probe.method} ${probe.path.split('?')[0]}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('names a path parameter too, and answers signed-out callers the same way', async () => {
    const res = await admin.put(`/org-management/organization/${world.org.id}/setting/a%00b`, { value: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^idString: must not contain a NUL character/);
    const signedOut = await server.client().post('/auth/user/login', { email: 'a@example.com', password: '\ud800' });
    expect(signedOut.status).toBe(400);
    expect(signedOut.body.message).toMatch(/^password: must not contain a lone surrogate/);
  });

  it('stores nothing: no row holds the text, not even with U+FFFD in its place', async () => {
    const names = (await server.deps.db.select({ name: organizations.name }).from(organizations)).map((r) => r.name);
    expect(names.filter((n) => n.includes(MARKER))).toEqual([]);
    const [exhibit] = await server.deps.db.select().from(exhibits).where(eq(exhibits.id, world.exhibit.id));
    expect(exhibit!.name).toBe('Pendulum');
  });

  it('never writes a submitted value to the log, even at debug level', async () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(MARKER);
  });
});

describe('the sockets answer an error for such text, and stay open', () => {
  it('the console socket', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: admin.cookieHeader } });
    const messages: { type: string; message?: string }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'subscribe', exhibitIds: [`${world.exhibit.id}\u0000`] }));
    socket.send(JSON.stringify({ type: 'ping' }));
    await expect.poll(() => messages.some((m) => m.type === 'pong')).toBe(true);
    expect(messages).toContainEqual({ type: 'error', message: expect.stringMatching(/exhibitIds\.0: must not contain a NUL character/) });
    socket.close();
  });

  it('the exhibit SDK socket, for a status and for a manifest', async () => {
    const sdk = await openExhibitSocket(server, admin, world.exhibit.id);
    sdk.send({ type: 'manifest', requestId: '1', manifest: { statuses: [{ id: 'ip', display: `IP\ud800` }] } });
    expect(await sdk.waitFor((m) => m.type === 'manifest.error' || m.type === 'manifest.ok')).toEqual({
      type: 'manifest.error',
      requestId: '1',
      status: 400,
      message: expect.stringMatching(/statuses\.0\.display: must not contain a lone surrogate/),
    });
    sdk.send({ type: 'manifest', requestId: '2', manifest: { statuses: [{ id: 'ip' }] } });
    await sdk.waitFor((m) => m.type === 'manifest.ok');
    sdk.send({ type: 'status', id: 'ip', value: `10.0.0.1${MARKER}\u0000` });
    sdk.send({ type: 'ping' });
    await sdk.waitFor((m) => m.type === 'pong');
    expect(sdk.messages).toContainEqual({ type: 'error', message: expect.stringMatching(/^Invalid message: value: must not contain a NUL character/) });
    sdk.close();
  });
});
