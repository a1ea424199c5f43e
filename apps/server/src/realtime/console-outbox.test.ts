import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { ServerMessage } from '@plinth/shared';
import { ConsoleOutbox, FLUSH_GAP_MS, frameOf } from './console-outbox.js';

/**
 * The outbox writes each event as a WebSocket frame it built once (frameOf) straight to the TCP
 * socket. A ws client on a real socket must read back exactly the messages sent, at each of the
 * three length encodings and with multi-byte text; with compression negotiated ws frames them.
 */
let server: WebSocketServer | undefined;
let client: WebSocket | undefined;

afterEach(async () => {
  client?.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = client = undefined;
});

/** A server and a client connected to it; answers the server's side of the socket. */
async function connectedPair(perMessageDeflate: boolean): Promise<{ serverSide: WebSocket; received: string[] }> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate });
  const serverSide = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
  await new Promise<void>((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate });
  const received: string[] = [];
  client.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    received.push(data.toString());
  });
  await new Promise<void>((resolve, reject) => {
    client!.once('open', resolve);
    client!.once('error', reject);
  });
  return { serverSide: await serverSide, received };
}

/** Messages whose JSON is just under and over each length boundary of RFC 6455 (126, 65,536), some with multi-byte characters. */
function messages(): ServerMessage[] {
  const sizes = [0, 90, 124, 125, 126, 200, 65_500, 65_535, 65_536, 70_000, 300_000];
  return sizes.flatMap((size) => [
    { type: 'error', message: 'x'.repeat(size) },
    // "é" is 2 bytes and "🎛" 4 in UTF-8: the frame's length must count bytes, not characters.
    { type: 'error', message: `é🎛${'é'.repeat(Math.floor(size / 2))}` },
  ]);
}

describe('console outbox frames', () => {
  it('gives the same frame object for the same message, however many sockets it goes to', () => {
    const message: ServerMessage = { type: 'error', message: 'once' };
    expect(frameOf(message)).toBe(frameOf(message));
    expect(frameOf(message).subarray(2).toString()).toBe(JSON.stringify(message));
  });

  for (const perMessageDeflate of [false, true]) {
    it(`delivers every message intact and in order ${perMessageDeflate ? 'with compression (ws frames them)' : 'written as built frames'}`, async () => {
      const { serverSide, received } = await connectedPair(perMessageDeflate);
      expect(serverSide.extensions === '').toBe(!perMessageDeflate);
      const outbox = new ConsoleOutbox(serverSide, () => {
        throw new Error('the reading client was taken for a slow console');
      });
      const sent = messages();
      for (const message of sent) outbox.write(message);
      const expected = sent.map((message) => JSON.stringify(message));
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(expected.length);
      expect(received).toEqual(expected);
      // The socket is still sound: a message after them arrives too.
      outbox.write({ type: 'realtime.status', live: true });
      await expect.poll(() => received.at(-1), { timeout: 10_000 }).toBe(JSON.stringify({ type: 'realtime.status', live: true }));
    });
  }

  it(`writes a console's frames at most every ${FLUSH_GAP_MS} ms while events keep coming, and an event after a quiet spell at once`, async () => {
    const { serverSide, received } = await connectedPair(false);
    const tcp = (serverSide as unknown as { _socket: Socket })._socket;
    const writes: number[] = [];
    const write = tcp.write.bind(tcp) as (chunk: Buffer) => boolean;
    tcp.write = ((chunk: Buffer) => {
      writes.push(performance.now());
      return write(chunk);
    }) as typeof tcp.write;
    const outbox = new ConsoleOutbox(serverSide, () => {
      throw new Error('the reading client was taken for a slow console');
    });

    // A lone event leaves at the end of its turn, with no wait.
    outbox.write({ type: 'error', message: 'lone' });
    expect(writes).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);

    // Then one event every turn or so for 200 ms: they leave together, FLUSH_GAP_MS apart.
    const started = performance.now();
    let sent = 0;
    while (performance.now() - started < 200) {
      outbox.write({ type: 'error', message: `steady ${sent++}` });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(sent + 1);
    expect(received.slice(1)).toEqual(Array.from({ length: sent }, (_, n) => JSON.stringify({ type: 'error', message: `steady ${n}` })));
    const gaps = writes.slice(1).map((at, i) => at - writes[i]!);
    // Timers may fire a little early by the clock read here; never half a gap early.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FLUSH_GAP_MS / 2);
    expect(writes.length).toBeLessThan(sent);
  });
});
