import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE, type RealtimeEventOf } from '@plinth/shared';
import { createHardwareRow, waitUntil } from '../test/hardware-kit.js';
import { SocketClient } from '../test/socket-client.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { SLOW_CONSOLE_MAX_HELD } from './console-outbox.js';
import type { HardwareEvent } from './hub-messages.js';

/**
 * A console that stops reading (issue 22): it must cost bounded memory and never hold up the
 * events of the other consoles. Its socket's reads are paused; events flow through the real hub.
 */
let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
});

/** A console socket subscribed to the board. */
async function subscribedConsole(hardwareId: string): Promise<SocketClient> {
  const socket = await SocketClient.open(server.url, { cookie: admin.cookieHeader });
  await socket.nextOfType('handshake');
  socket.send({ type: 'subscribe', hardwareIds: [hardwareId] });
  await socket.nextOfType('subscribed');
  return socket;
}

/** Stops reading the socket's TCP stream: the server's writes pile up in its buffers. */
function stopReading(socket: SocketClient): Socket {
  const tcp = (socket.ws as unknown as { _socket: Socket })._socket;
  tcp.pause();
  return tcp;
}

const propChanged = (hardwareId: string, n: number, prop: number): RealtimeEventOf<'hardware.propChanged'> => ({
  type: 'hardware.propChanged',
  hardwareId,
  peripheralId: 'text1',
  periphName: 'Text',
  propName: `prop${prop}`,
  propType: 'string',
  value: `${n} ${'x'.repeat(500)}`,
});

/**
 * Publishes `count` events, 250 at a time, each batch once the reading console has taken all but
 * 250 of the earlier ones: it stays well under the outbox's threshold, however busy the machine
 * (the server and both consoles share this process), so only the console that stopped reading
 * falls behind.
 */
async function publish(count: number, event: (n: number) => HardwareEvent, hardwareId: string, reading: () => number) {
  for (let n = 0; n < count; n += 1) {
    server.deps.hub.publish('hardware', hardwareId, event(n));
    if (n % 250 === 249) await waitUntil(() => reading() >= n + 1 - 250, 'the reading console to keep up', 20_000);
  }
}

describe('a console that stops reading', () => {
  it('gets only the newest of each value once it reads again, while another console gets every event', { timeout: 60_000 }, async () => {
    const { hardwareId } = await createHardwareRow(server);
    const slow = await subscribedConsole(hardwareId);
    const fast = await subscribedConsole(hardwareId);
    const tcp = stopReading(slow);
    const fastSeen: number[] = [];
    const fastCount = () => fastSeen.length;
    fast.ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; value?: string };
      if (message.type === 'hardware.propChanged') fastSeen.push(Number(message.value!.split(' ')[0]));
    });
    // 20,000 changes of 50 props, about 10 MB of events.
    const total = 20_000;
    await publish(total, (n) => propChanged(hardwareId, n, n % 50), hardwareId, fastCount);
    await waitUntil(() => fastCount() === total, 'every event at the reading console', 20_000);
    expect(fastSeen).toEqual([...Array(total).keys()]);

    // Reading again: what the buffers held, then only the newest value of each prop.
    tcp.resume();
    const last = new Map<string, number>();
    let received = 0;
    // Everything it is sent, until a second passes without a message.
    for (let message = await slow.next(5000).catch(() => null); message; message = await slow.next(1000).catch(() => null)) {
      if (message.type !== 'hardware.propChanged') continue;
      received += 1;
      last.set(message.propName, Number(String(message.value).split(' ')[0]));
    }
    for (let prop = 0; prop < 50; prop += 1) expect(last.get(`prop${prop}`)).toBe(total - 50 + prop);
    // Far fewer than were published: the rest were merged while it did not read.
    expect(received).toBeLessThan(total / 2);
    slow.close();
    fast.close();
  });

  it('is closed (tooSlow) once more events than it may hold wait, and the other console is not held up', { timeout: 60_000 }, async () => {
    const { hardwareId } = await createHardwareRow(server);
    const slow = await subscribedConsole(hardwareId);
    const fast = await subscribedConsole(hardwareId);
    const tcp = stopReading(slow);
    let fastLines = 0;
    fast.ws.on('message', (raw) => {
      if ((JSON.parse(raw.toString()) as { type: string }).type === 'hardware.logged') fastLines += 1;
    });
    // Log lines each count (none merges): more than the slow console may hold, 1 KB each.
    const total = SLOW_CONSOLE_MAX_HELD * 4;
    const line = 'y'.repeat(1000);
    await publish(total, (n) => ({ type: 'hardware.logged', hardwareId, log: { level: 'info', message: `${n} ${line}`, eventType: 'info', createdAt: new Date().toISOString() } }), hardwareId, () => fastLines);
    await waitUntil(() => fastLines === total, 'every line at the reading console', 30_000);
    // Reading again, it finds what the buffers held, then the close frame behind it.
    let slowLines = 0;
    slow.ws.on('message', () => (slowLines += 1));
    tcp.resume();
    expect((await slow.closedWithin(10_000)).code).toBe(CONSOLE_CLOSE.tooSlow);
    expect(slowLines).toBeLessThan(total / 2);
    fast.close();
  });

  it('a reading console gets every event of a 1.6 MB burst published in one turn: frames gathered in the turn do not count as falling behind', { timeout: 30_000 }, async () => {
    const { hardwareId } = await createHardwareRow(server);
    const reader = await subscribedConsole(hardwareId);
    const seen: number[] = [];
    reader.ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; value?: string };
      if (message.type === 'hardware.propChanged') seen.push(Number(message.value!.split(' ')[0]));
    });
    // 3,000 changes of 50 props in one synchronous loop: past the 1 MiB a slow console may have
    // waiting, all written in this turn. Had they counted as waiting, most would be merged.
    const total = 3000;
    for (let n = 0; n < total; n += 1) server.deps.hub.publish('hardware', hardwareId, propChanged(hardwareId, n, n % 50));
    await waitUntil(() => seen.length === total, 'every event of the burst', 20_000);
    expect(seen).toEqual([...Array(total).keys()]);
    reader.close();
  });
});
