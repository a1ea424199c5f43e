import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createHardware, createOrganization, createSite } from '../../test/factories.js';
import { createToken, newBoard, waitUntilAnnounced } from '../../test/hardware-kit.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { LEASE_REREAD_MS } from './live-leases.js';

/**
 * Two server nodes of one deployment (one PostgreSQL, one Redis): a console on node A takes the
 * live-log lease through A, the device is connected to node B, and B's recorder learns of the
 * lease at its next re-read of the lease table.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let a: TestServer;
let b: TestServer;
let adminA: TestClient;
let adminB: TestClient;
let exhibitId: string;
let hardwareId: string;
let sdk: ExhibitSocket;
let board: SimulatedBoard;
let socket: SocketClient;

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL });
  b = await startTestServer({ REDIS_URL }, { databaseUrl: a.databaseUrl });
  const admin = await a.signUp({ isPlatformAdmin: true });
  adminA = admin.client;
  adminB = await b.signIn(admin.email, admin.password);
  const site = await createSite(a.deps.db, (await createOrganization(a.deps.db)).id);
  exhibitId = (await createExhibit(a.deps.db, site.id)).id;
  hardwareId = (await createHardware(a.deps.db, site.id)).id;
  sdk = await openExhibitSocket(b, adminB, exhibitId);
  const { token } = await createToken(adminB, hardwareId);
  board = newBoard({ url: `mqtt://127.0.0.1:${b.mqttPort}`, hardwareId, token });
  await board.start();
  await waitUntilAnnounced(b, hardwareId);
  socket = await SocketClient.open(a.url, { cookie: adminA.cookieHeader });
  socket.send({ type: 'subscribe', exhibitIds: [exhibitId], hardwareIds: [hardwareId] });
  await socket.nextOfType('subscribed');
});
afterAll(async () => {
  socket?.close();
  sdk?.close();
  await board?.stop();
  // B shares A's database; A drops it.
  await b?.stop();
  await a?.stop();
});

/** Long enough for every node to have re-read the leases once. */
const reread = () => new Promise((resolve) => setTimeout(resolve, LEASE_REREAD_MS + 500));

describe('live logs across two nodes', () => {
  it('reach a console on node A from an exhibit and a board on node B while A’s lease lasts', async () => {
    expect((await adminA.post('/logging/exhibit/live', { exhibitId, enabled: true })).status).toBe(200);
    expect((await adminA.post('/logging/hardware/live', { hardwareId, enabled: true })).status).toBe(200);
    await reread();

    sdk.send({ type: 'log', entries: [{ level: 'info', message: 'from node B', timestamp: new Date().toISOString() }] });
    expect((await socket.nextOfType('exhibit.logged', 2000)).log).toMatchObject({ message: 'from node B', eventType: 'info' });
    await board.publish('log', { level: 'warn', message: 'board on node B' });
    expect((await socket.nextOfType('hardware.logged', 2000)).log).toMatchObject({ message: 'board on node B', eventType: 'warn' });

    expect((await adminA.post('/logging/exhibit/live', { exhibitId, enabled: false })).status).toBe(200);
    expect((await adminA.post('/logging/hardware/live', { hardwareId, enabled: false })).status).toBe(200);
    await reread();
    sdk.send({ type: 'log', entries: [{ level: 'info', message: 'after the lease', timestamp: new Date().toISOString() }] });
    await board.publish('log', { level: 'info', message: 'after the lease' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = (await socket.drain()).filter((m) => m.type === 'exhibit.logged' || m.type === 'hardware.logged');
    expect(late).toEqual([]);

    // Both nodes stored what they received, whoever watched.
    await b.deps.logs.flush();
    const page = await adminA.get(`/logging/exhibit?exhibitId=${exhibitId}&start=${Date.now() - 60_000}&end=${Date.now()}&levels=info`);
    const own = (page.body.logs as { message: string; eventType: string }[]).filter((l) => l.eventType === 'info');
    expect(own.map((l) => l.message)).toEqual(['after the lease', 'from node B']);
  });
});
