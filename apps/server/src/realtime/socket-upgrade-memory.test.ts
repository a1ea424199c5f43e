import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_MAX_MESSAGE_BYTES } from '@plinth/shared';
import { createExhibit, createWorld } from '../test/factories.js';
import { captureLogs, type LogCapture } from '../test/log-capture.js';
import { openExhibitSocket, type ExhibitSocket } from '../test/exhibit-socket.js';
import { SocketClient } from '../test/socket-client.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

// What an open socket keeps (issue 22, memory an exhibit): once the /ws route took what it needs
// from the upgrade request, nothing holds the request, its headers, reply or logger any more.

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: TestServer;
let admin: TestClient;
let logs: LogCapture;
/** The raw upgrade request of every socket the server accepted, held weakly. */
const requests: WeakRef<IncomingMessage>[] = [];
const exhibits: ExhibitSocket[] = [];
const consoles: SocketClient[] = [];

beforeAll(async () => {
  logs = captureLogs('warn');
  server = await startTestServer({}, { logger: logs.logger });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const sockets = (server.app as unknown as { websocketServer: { on: (event: 'connection', listener: (socket: unknown, request: IncomingMessage) => void) => void } }).websocketServer;
  sockets.on('connection', (_socket, request) => requests.push(new WeakRef(request)));
});

afterAll(async () => {
  for (const socket of exhibits) socket.close();
  for (const socket of consoles) socket.close();
  await server?.stop();
});

/** Full collections until every upgrade request is gone, or `rounds` of them. */
async function collectRequests(rounds = 10): Promise<number> {
  let alive = requests.length;
  for (let round = 0; round < rounds && alive > 0; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    alive = requests.filter((request) => request.deref()).length;
  }
  return alive;
}

describe('an open socket', () => {
  it('keeps nothing of its upgrade request once it is accepted, and still works', async () => {
    const siteId = (await createWorld(server)).siteA.id;
    for (let i = 0; i < 3; i++) exhibits.push(await openExhibitSocket(server, admin, (await createExhibit(server.deps.db, siteId)).id));
    const signedIn = await server.signUp({ isPlatformAdmin: true });
    const consoleSocket = await SocketClient.open(server.url, { cookie: signedIn.client.cookieHeader });
    consoles.push(consoleSocket);
    expect((await consoleSocket.nextOfType('handshake')).authenticated).toBe(true);
    expect(requests).toHaveLength(4);

    expect(await collectRequests()).toBe(0);

    // The sockets are still served.
    for (const exhibit of exhibits) {
      exhibit.send({ type: 'ping' });
      await exhibit.waitFor((message) => message.type === 'pong');
    }
    consoleSocket.send({ type: 'ping' });
    await consoleSocket.nextOfType('pong');
  });

  it('that breaks the protocol is still closed, and the error logged, without its request', async () => {
    const consoleSocket = await SocketClient.open(server.url);
    consoles.push(consoleSocket);
    await consoleSocket.nextOfType('handshake');
    expect(await collectRequests()).toBe(0);

    consoleSocket.send('x'.repeat(SOCKET_MAX_MESSAGE_BYTES + 1));
    await expect.poll(() => consoleSocket.closed?.code, { timeout: 5000 }).toBe(1009);
    await expect.poll(() => logs.lines.some((line) => line.msg === 'socket error'), { timeout: 5000 }).toBe(true);
  });
});
