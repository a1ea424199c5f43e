import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@plinth/shared';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createHardware, createWorld, userWith } from '../../test/factories.js';
import { createToken, newBoard, waitUntilAnnounced } from '../../test/hardware-kit.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let admin: TestClient;
let viewer: TestClient;
let exhibitId: string;
let hardwareId: string;
let sdk: ExhibitSocket;
let board: SimulatedBoard;
const sockets: SocketClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const world = await createWorld(server);
  exhibitId = world.exhibit.id;
  hardwareId = (await createHardware(server.deps.db, world.siteA.id)).id;
  viewer = await userWith(server, ['organization', world.org.id, 'VIEWER']);
  sdk = await openExhibitSocket(server, admin, exhibitId);
  const { token } = await createToken(admin, hardwareId);
  board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId, token });
  await board.start();
  await waitUntilAnnounced(server, hardwareId);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  sdk?.close();
  await board?.stop();
  await server?.stop();
});

/** A console socket of `client` subscribed to the exhibit and the board. */
async function consoleSocket(client: TestClient): Promise<SocketClient> {
  const socket = await SocketClient.open(server.url, { cookie: client.cookieHeader });
  sockets.push(socket);
  socket.send({ type: 'subscribe', exhibitIds: [exhibitId], hardwareIds: [hardwareId] });
  await socket.nextOfType('subscribed');
  return socket;
}

/** Every `*.logged` event the socket got up to now (a ping's pong marks the end). */
async function loggedSoFar(socket: SocketClient): Promise<ServerMessage[]> {
  return (await socket.drain()).filter((m) => m.type === 'exhibit.logged' || m.type === 'hardware.logged');
}

describe('live logs', () => {
  it('push an exhibit’s lines to subscribed consoles only while leased, within 250 ms of arrival', async () => {
    const socket = await consoleSocket(viewer);
    sdk.send({ type: 'log', entries: [{ level: 'info', message: 'before the lease', timestamp: new Date().toISOString() }] });
    expect(await loggedSoFar(socket)).toEqual([]);

    expect((await viewer.post('/logging/exhibit/live', { exhibitId, enabled: true })).body.enabled).toBe(true);
    const sentAt = Date.now();
    sdk.send({ type: 'log', entries: [{ level: 'warn', message: '{"door":"open"}', timestamp: new Date(sentAt).toISOString() }] });
    const live = await socket.nextOfType('exhibit.logged');
    expect(Date.now() - sentAt).toBeLessThan(250);
    expect(live).toEqual({ type: 'exhibit.logged', exhibitId, log: { level: 'warn', message: '{"door":"open"}', eventType: 'warn', createdAt: new Date(sentAt).toISOString() } });
    // The server's own record goes live the same way.
    expect((await admin.post(`/exhibit-management/exhibit/${exhibitId}/opMode`, { opMode: 'On' })).status).toBe(200);
    const opMode = await socket.nextOfType('exhibit.logged');
    expect(opMode.log).toMatchObject({ level: 'info', eventType: 'opMode', message: expect.stringContaining('On by ') });

    expect((await viewer.post('/logging/exhibit/live', { exhibitId, enabled: false })).body.enabled).toBe(false);
    sdk.send({ type: 'log', entries: [{ level: 'info', message: 'after the lease', timestamp: new Date().toISOString() }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await loggedSoFar(socket)).toEqual([]);
  });

  it('stay on while another user still leases the device', async () => {
    const socket = await consoleSocket(viewer);
    await admin.post('/logging/exhibit/live', { exhibitId, enabled: true });
    await viewer.post('/logging/exhibit/live', { exhibitId, enabled: true });
    await viewer.post('/logging/exhibit/live', { exhibitId, enabled: false });
    sdk.send({ type: 'log', entries: [{ level: 'debug', message: 'still live', timestamp: new Date().toISOString() }] });
    expect((await socket.nextOfType('exhibit.logged')).log.message).toBe('still live');
    await admin.post('/logging/exhibit/live', { exhibitId, enabled: false });
  });

  it('push a board’s lines only while leased, and its own time for a line it queued', async () => {
    const socket = await consoleSocket(viewer);
    await board.publish('log', { level: 'info', message: 'before the lease' });
    expect(await loggedSoFar(socket)).toEqual([]);

    expect((await viewer.post('/logging/hardware/live', { hardwareId, enabled: true })).body.enabled).toBe(true);
    await board.publish('log', { level: 'error', message: 'relay stuck' });
    expect((await socket.nextOfType('hardware.logged')).log).toMatchObject({ level: 'error', message: 'relay stuck', eventType: 'error' });
    const queuedAt = new Date(Date.now() - 60_000).toISOString();
    await board.publish('log', { level: 'info', message: 'queued offline', timestamp: queuedAt });
    expect(await socket.nextOfType('hardware.logged')).toEqual({
      type: 'hardware.logged',
      hardwareId,
      log: { level: 'info', message: 'queued offline', eventType: 'info', createdAt: queuedAt },
    });

    expect((await viewer.post('/logging/hardware/live', { hardwareId, enabled: false })).body.enabled).toBe(false);
    await board.publish('log', { level: 'info', message: 'after the lease' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await loggedSoFar(socket)).toEqual([]);

    // Every line was stored, leased or not.
    await server.deps.logs.flush();
    const page = await viewer.get(`/logging/hardware?hardwareId=${hardwareId}&start=${Date.now() - 3_600_000}&end=${Date.now()}&levels=info,error`);
    // The simulator logs its own boot and commands too: only this test's lines are compared.
    const sent = ['after the lease', 'relay stuck', 'before the lease', 'queued offline'];
    expect(page.body.logs.map((l: { message: string }) => l.message).filter((m: string) => sent.includes(m))).toEqual([
      'after the lease',
      'relay stuck',
      'before the lease',
      'queued offline',
    ]);
  });
});
