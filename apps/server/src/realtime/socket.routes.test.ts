import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@plinth/shared';
import { createExhibit, createHardware, createOrganization, createSite, uniqueName, userWith } from '../test/factories.js';
import { SocketClient } from '../test/socket-client.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { hubSubscription } from './hub.js';

let server: TestServer;

const insertOrganization = async (name: string) => (await createOrganization(server.deps.db, uniqueName(name))).id;
const insertSite = async (organizationId: string) => (await createSite(server.deps.db, organizationId, 'Hall')).id;
const insertExhibit = async (siteId: string, name: string) => (await createExhibit(server.deps.db, siteId, name)).id;
const insertHardware = async (siteId: string, name: string) => (await createHardware(server.deps.db, siteId, name)).id;
const userOf = (organizationId: string, role: Role): Promise<TestClient> => userWith(server, ['organization', organizationId, role]);

/** Opens a console socket on the test server; it is closed after the test. */
async function openSocket(headers: Record<string, string> = {}): Promise<SocketClient> {
  const socket = await SocketClient.open(server.url, headers);
  sockets.push(socket);
  return socket;
}

const sockets: SocketClient[] = [];

let orgA: string;
let volcano: string;
let glacier: string;
let boardA: string;
let painting: string;
let memberA: TestClient;
let memberB: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  orgA = await insertOrganization('Science Museum');
  const siteA = await insertSite(orgA);
  volcano = await insertExhibit(siteA, 'Volcano');
  glacier = await insertExhibit(siteA, 'Glacier');
  boardA = await insertHardware(siteA, 'Board');
  const orgB = await insertOrganization('Art Museum');
  painting = await insertExhibit(await insertSite(orgB), 'Painting');
  memberA = await userOf(orgA, 'VIEWER');
  memberB = await userOf(orgB, 'VIEWER');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await server?.stop();
});

describe('/ws authentication', () => {
  it('authenticates from the session cookie on upgrade', async () => {
    const me = (await memberA.get('/auth')).body;
    const socket = await openSocket({ cookie: memberA.cookieHeader });
    expect(await socket.next()).toEqual({ type: 'handshake', authenticated: true, userId: me.id });
  });

  it('accepts an auth message with a session token when the upgrade had no cookie', async () => {
    const socket = await openSocket();
    expect(await socket.next()).toEqual({ type: 'handshake', authenticated: false });
    socket.send({ type: 'subscribe', exhibitIds: [volcano] });
    expect(await socket.next()).toEqual({ type: 'error', message: 'Authenticate before subscribing.' });
    socket.send({ type: 'auth', token: 'not-a-session' });
    expect(await socket.next()).toEqual({ type: 'handshake', authenticated: false });
    socket.send({ type: 'auth', token: memberA.sessionToken });
    expect(await socket.next()).toMatchObject({ type: 'handshake', authenticated: true });
    socket.send({ type: 'subscribe', exhibitIds: [volcano] });
    expect(await socket.next()).toEqual({ type: 'subscribed', exhibitIds: [volcano], hardwareIds: [], refused: [] });
  });

  it('handles an auth message and the subscribe sent right after it in order', async () => {
    const socket = await openSocket();
    await socket.next();
    socket.send({ type: 'auth', token: memberA.sessionToken });
    socket.send({ type: 'subscribe', exhibitIds: [volcano] });
    expect(await socket.next()).toMatchObject({ type: 'handshake', authenticated: true });
    expect(await socket.next()).toEqual({ type: 'subscribed', exhibitIds: [volcano], hardwareIds: [], refused: [] });
  });

  it('answers errors to bad messages and pong to ping', async () => {
    const socket = await openSocket({ cookie: memberA.cookieHeader });
    await socket.next();
    socket.send('not json');
    expect(await socket.next()).toEqual({ type: 'error', message: 'Messages must be JSON.' });
    socket.send({ type: 'explode' });
    expect(await socket.next()).toMatchObject({ type: 'error' });
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
  });
});

describe('/ws subscriptions', () => {
  it('subscribes to visible exhibits and hardware and refuses the others', async () => {
    const socket = await openSocket({ cookie: memberA.cookieHeader });
    await socket.next();
    const unknown = randomUUID();
    socket.send({ type: 'subscribe', exhibitIds: [volcano, painting, 'garbage', unknown], hardwareIds: [boardA] });
    expect(await socket.next()).toEqual({
      type: 'subscribed',
      exhibitIds: [volcano],
      hardwareIds: [boardA],
      refused: [painting, 'garbage', unknown],
    });
  });

  it('delivers published events to subscribed sockets only', async () => {
    const a = await openSocket({ cookie: memberA.cookieHeader });
    const b = await openSocket({ cookie: memberB.cookieHeader });
    await a.next();
    await b.next();
    a.send({ type: 'subscribe', exhibitIds: [volcano, painting], hardwareIds: [boardA] });
    b.send({ type: 'subscribe', exhibitIds: [volcano, painting] });
    expect(await a.next()).toMatchObject({ exhibitIds: [volcano], refused: [painting] });
    expect(await b.next()).toMatchObject({ exhibitIds: [painting], refused: [volcano] });

    server.deps.hub.publish('exhibit', volcano, { type: 'exhibit.updated', exhibitId: volcano });
    server.deps.hub.publish('exhibit', glacier, { type: 'exhibit.updated', exhibitId: glacier });
    server.deps.hub.publish('exhibit', painting, { type: 'exhibit.updated', exhibitId: painting });
    server.deps.hub.publish('hardware', boardA, { type: 'hardware.debugChanged', hardwareId: boardA, controlDebug: true });

    expect(await a.drain()).toEqual([
      { type: 'exhibit.updated', exhibitId: volcano },
      { type: 'hardware.debugChanged', hardwareId: boardA, controlDebug: true },
    ]);
    expect(await b.drain()).toEqual([{ type: 'exhibit.updated', exhibitId: painting }]);
  });

  it('stops delivering after unsubscribe, by id or everything', async () => {
    const socket = await openSocket({ cookie: memberA.cookieHeader });
    await socket.next();
    socket.send({ type: 'subscribe', exhibitIds: [volcano, glacier], hardwareIds: [boardA] });
    await socket.next();

    socket.send({ type: 'unsubscribe', exhibitIds: [volcano] });
    expect(await socket.next()).toEqual({ type: 'unsubscribed', exhibitIds: [volcano], hardwareIds: [] });
    server.deps.hub.publish('exhibit', volcano, { type: 'exhibit.updated', exhibitId: volcano });
    server.deps.hub.publish('exhibit', glacier, { type: 'exhibit.updated', exhibitId: glacier });
    expect(await socket.drain()).toEqual([{ type: 'exhibit.updated', exhibitId: glacier }]);

    socket.send({ type: 'unsubscribe' });
    expect(await socket.next()).toMatchObject({ type: 'unsubscribed' });
    server.deps.hub.publish('exhibit', glacier, { type: 'exhibit.updated', exhibitId: glacier });
    server.deps.hub.publish('hardware', boardA, { type: 'hardware.updated', hardwareId: boardA });
    expect(await socket.drain()).toEqual([]);
  });

  it('stops and starts the events of a board by id, whatever another console on the same board does', async () => {
    const one = await openSocket({ cookie: memberA.cookieHeader });
    const other = await openSocket({ cookie: memberA.cookieHeader });
    for (const socket of [one, other]) {
      await socket.next();
      socket.send({ type: 'subscribe', hardwareIds: [boardA] });
      expect(await socket.next()).toEqual({ type: 'subscribed', exhibitIds: [], hardwareIds: [boardA], refused: [] });
    }
    const updated = { type: 'hardware.updated', hardwareId: boardA } as const;

    one.send({ type: 'unsubscribe', hardwareIds: [boardA] });
    expect(await one.next()).toEqual({ type: 'unsubscribed', exhibitIds: [], hardwareIds: [boardA] });
    server.deps.hub.publish('hardware', boardA, updated);
    expect(await one.drain()).toEqual([]);
    expect(await other.drain()).toEqual([updated]);

    // Subscribed again, twice: one event each time, not two.
    for (let i = 0; i < 2; i++) {
      one.send({ type: 'subscribe', hardwareIds: [boardA] });
      expect(await one.next()).toMatchObject({ type: 'subscribed', hardwareIds: [boardA] });
    }
    other.close();
    server.deps.hub.publish('hardware', boardA, updated);
    expect(await one.drain()).toEqual([updated]);
  });

  it('receives the events of REST changes', async () => {
    const developer = await userOf(orgA, 'DEVELOPER');
    const socket = await openSocket({ cookie: developer.cookieHeader });
    await socket.next();
    socket.send({ type: 'subscribe', exhibitIds: [glacier] });
    await socket.next();
    expect((await developer.put(`/exhibit-management/exhibit/${glacier}`, { manifestLocked: true })).status).toBe(200);
    expect(await socket.next()).toEqual({ type: 'exhibit.updated', exhibitId: glacier });
  });

  it('drops the subscriptions of a closed socket, its access listener included', async () => {
    const hub = server.deps.hub;
    const original = hub.subscribe;
    let active = 0;
    hub.subscribe = (kind, id, listener) => {
      active += 1;
      const unsubscribe = original(kind, id, listener);
      return hubSubscription(() => {
        active -= 1;
        unsubscribe();
      }, unsubscribe.ready);
    };
    try {
      const socket = await openSocket({ cookie: memberA.cookieHeader });
      await socket.next();
      socket.send({ type: 'subscribe', exhibitIds: [volcano, glacier], hardwareIds: [boardA] });
      await socket.next();
      // Three topics and the listener for the user's access changes.
      expect(active).toBe(4);
      socket.close();
      const deadline = Date.now() + 5000;
      while (active > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(active).toBe(0);
    } finally {
      hub.subscribe = original;
    }
  });
});
