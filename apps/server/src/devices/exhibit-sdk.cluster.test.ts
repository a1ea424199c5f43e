import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ManifestInput, ServerMessage } from '@plinth/shared';
import { exhibitConnections } from '../db/schema.js';
import { createExhibit, createOrganization, createSite } from '../test/factories.js';
import type { TestClient } from '../test/test-client.js';
import { startLatencyProxy } from '../test/latency-proxy.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { Exhibit } from '@plinth/sdk';

/**
 * Two server instances of one deployment (same PostgreSQL database, same Redis): an exhibit
 * connected to one is driven through the other, and consoles on the other see it live.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const MANIFEST: ManifestInput = {
  statuses: [{ id: 'count', type: 'Integer', display: 'Visitors', default: 0 }],
  controls: [
    { id: 'reload', type: 'Single', display: 'Reload' },
    { id: 'volume', type: 'Group', display: 'Volume', items: [{ id: 'up', display: 'Up' }, { id: 'down', display: 'Down' }] },
  ],
  settings: [
    { id: 'kiosk_name', type: 'TextInput', default: 'Lobby' },
    { id: 'idle_timeout_secs', type: 'IntegerInput', default: 30, min: 5, max: 600 },
  ],
};

let a: TestServer;
let b: TestServer;
let databaseLink: Awaited<ReturnType<typeof startLatencyProxy>> | undefined;
let adminA: TestClient;
let adminB: TestClient;
let siteId: string;
const open: Exhibit[] = [];
const sockets: WebSocket[] = [];
const wait = { timeout: 10_000, interval: 20 };

async function newExhibitRecord(): Promise<{ id: string; token: string; tokenId: string }> {
  const exhibit = await createExhibit(a.deps.db, siteId);
  const res = await adminB.post('/auth/exhibit', { name: 'main', exhibitId: exhibit.id });
  expect(res.status).toBe(200);
  return { id: exhibit.id, token: res.body.token, tokenId: res.body.id };
}

function connect(server: TestServer, id: string, token: string): Exhibit {
  const exhibit = new Exhibit({ serverUrl: server.url, exhibitId: id, token, manifest: MANIFEST, reconnectMinMs: 50, reconnectMaxMs: 200 });
  open.push(exhibit);
  return exhibit;
}

/** A console socket on `server`, signed in as `client`, subscribed to one exhibit. */
async function consoleSocket(server: TestServer, client: TestClient, exhibitId: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: client.cookieHeader } });
  sockets.push(socket);
  const messages: ServerMessage[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as ServerMessage));
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'subscribe', exhibitIds: [exhibitId] }));
  await vi.waitFor(() => expect(messages.some((m) => m.type === 'subscribed')).toBe(true));
  return messages;
}

async function manifestOf(client: TestClient, id: string) {
  const res = await client.get(`/exhibit-management/exhibit/${id}/manifest`);
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL });
  // B reaches the database over a slower link (10 ms each way), as a node in another zone would:
  // what B writes lands after what A writes at the same moment.
  const database = new URL(a.databaseUrl);
  databaseLink = await startLatencyProxy({ host: database.hostname, port: Number(database.port || 5432) }, 10);
  database.host = `127.0.0.1:${databaseLink.port}`;
  b = await startTestServer({ REDIS_URL }, { databaseUrl: database.href });
  const admin = await a.signUp({ isPlatformAdmin: true });
  adminA = admin.client;
  adminB = await b.signIn(admin.email, admin.password);
  const org = await createOrganization(a.deps.db);
  siteId = (await createSite(a.deps.db, org.id)).id;
});
afterAll(async () => {
  for (const exhibit of open) exhibit.close();
  for (const socket of sockets) socket.close();
  // B shares A's database; A drops it.
  await b?.stop();
  await a?.stop();
  await databaseLink?.close();
});

describe('an exhibit across two server instances', () => {
  it('is driven through the instance it is not connected to, and consoles there see it live', async () => {
    const record = await newExhibitRecord();
    const events = await consoleSocket(b, adminB, record.id);
    const exhibit = connect(a, record.id, record.token);
    const controls: unknown[] = [];
    const settings: Array<[string, unknown]> = [];
    exhibit.on('control', (c) => controls.push(c));
    exhibit.on('setting', ({ id, value }) => settings.push([id, value]));
    await exhibit.ready();

    // The console on B sees the exhibit come online on A, and its statuses.
    await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ type: 'exhibit.presenceChanged', exhibitId: record.id, online: true })), wait);
    exhibit.setStatus('count', 7);
    await vi.waitFor(() => expect(events).toContainEqual({ type: 'exhibit.statusChanged', exhibitId: record.id, statusId: 'count', value: 7 }), wait);
    expect((await manifestOf(adminB, record.id)).online).toBe(true);

    // Controls fired through B reach the SDK on A.
    const base = `/exhibit-management/exhibit/${record.id}/control`;
    expect((await adminB.post(`${base}/reload`)).body).toEqual({ delivered: true });
    expect((await adminB.post(`${base}/volume?itemId=up`)).status).toBe(200);
    await vi.waitFor(() => expect(controls).toEqual([{ id: 'reload' }, { id: 'volume', itemId: 'up' }]), wait);

    // A setting saved through B reaches the SDK, which acknowledges it through A.
    const saved = await adminB.post(`/exhibit-management/exhibit/${record.id}/setting/idle_timeout_secs`, { value: 120 });
    expect(saved.status).toBe(200);
    await vi.waitFor(() => expect(settings).toContainEqual(['idle_timeout_secs', 120]), wait);
    expect(exhibit.getSetting('idle_timeout_secs')).toBe(120);
    await vi.waitFor(async () => {
      const setting = (await manifestOf(adminB, record.id)).manifest.settings.find((s: { manifestId: string }) => s.manifestId === 'idle_timeout_secs');
      expect(setting).toMatchObject({ value: 120, applied: true });
    }, wait);
    await vi.waitFor(
      () => expect(events).toContainEqual({ type: 'exhibit.settingChanged', exhibitId: record.id, settingId: 'idle_timeout_secs', value: 120, applied: true, version: expect.any(Number) }),
      wait,
    );

    // The op mode switched through B reaches the SDK too.
    expect((await adminB.post(`/exhibit-management/exhibit/${record.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    await vi.waitFor(() => expect(exhibit.getOpMode()).toBe('On'), wait);

    // Closed on A: B answers 409 ExhibitOffline, and its console sees the exhibit go offline.
    exhibit.close();
    await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ type: 'exhibit.presenceChanged', exhibitId: record.id, online: false })), wait);
    const offline = await adminB.post(`${base}/reload`);
    expect(offline.status).toBe(409);
    expect(offline.body.code).toBe('ExhibitOffline');
  });

  it('closes a session on A when its token is revoked through B', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(a, record.id, record.token);
    exhibit.on('error', () => undefined);
    await exhibit.ready();
    const disconnected = once(exhibit, 'disconnected');
    expect((await adminB.delete(`/auth/exhibit/delete-token/${record.tokenId}`)).status).toBe(200);
    const [info] = (await disconnected) as [{ code: number }];
    expect(info.code).toBe(4001);
    await vi.waitFor(async () => expect((await manifestOf(adminB, record.id)).online).toBe(false), wait);
  });

  it('moves to B when the exhibit reconnects there: the connection on A is replaced and the exhibit stays online', async () => {
    const record = await newExhibitRecord();
    const first = connect(a, record.id, record.token);
    first.on('error', () => undefined);
    await first.ready();
    const replaced = once(first, 'disconnected');
    const second = connect(b, record.id, record.token);
    const controls: unknown[] = [];
    second.on('control', (c) => controls.push(c));
    await second.ready();
    const [info] = (await replaced) as [{ code: number }];
    expect(info.code).toBe(4009);

    // A's connection ending must not mark offline an exhibit now connected to B. Closing A's
    // gateway waits for A's pending online/offline writes (this is the last test using A's gateway).
    await vi.waitFor(() => expect(a.deps.exhibitGateway.connectionCount()).toBe(0), wait);
    await a.deps.exhibitGateway.close();
    const history = await a.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
    expect(history.map((h) => h.online)).toEqual([true, true]);
    expect((await manifestOf(adminA, record.id)).online).toBe(true);
    expect((await adminA.post(`/exhibit-management/exhibit/${record.id}/control/reload`)).body).toEqual({ delivered: true });
    await vi.waitFor(() => expect(controls).toEqual([{ id: 'reload' }]), wait);
  });
});
