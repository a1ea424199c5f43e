import mqtt from 'mqtt';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../test/hardware-kit.js';
import { startEmbeddedBroker, type BoardSession, type EmbeddedBroker } from './mqtt-broker.js';

/**
 * Which boards the embedded broker holds a ready connection of: asked at every disconnect (a board
 * goes offline only when its last connection left), so it must stay right however connections
 * come and go, and be answered without a scan of every session.
 */

const A = '0b6c0b52-8f0e-4f4e-9a55-1d7d1b1f0c11';
const B = '5d0e6f1c-2b7a-4c1e-8f3d-9a2b1c0d4e5f';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function broker(): Promise<{ embedded: EmbeddedBroker; ready: BoardSession[]; gone: BoardSession[] }> {
  const ready: BoardSession[] = [];
  const gone: BoardSession[] = [];
  const embedded = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
    // The token names itself: 'token-1' is token id 'token-1' of whichever board.
    authenticateBoard: async (_hardwareId, token) => (token.startsWith('token-') ? { tokenId: token } : null),
    onBoardConnected: (session) => ready.push(session),
    onBoardDisconnected: (session) => gone.push(session),
  });
  cleanup.push(() => embedded.close());
  return { embedded, ready, gone };
}

async function connect(embedded: EmbeddedBroker, hardwareId: string, token: string): Promise<mqtt.MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${embedded.port}`, {
    username: hardwareId,
    password: token,
    clientId: `test-${Math.random().toString(36).slice(2, 10)}`,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  client.on('error', () => undefined);
  cleanup.push(() => client.endAsync(true));
  return client;
}

describe('the embedded broker’s connected boards', () => {
  it('holds a board connected until its last connection leaves, each board on its own', async () => {
    const { embedded, gone } = await broker();
    expect(embedded.isConnected(A)).toBe(false);
    const first = await connect(embedded, A, 'token-1');
    const second = await connect(embedded, A, 'token-2');
    const other = await connect(embedded, B, 'token-1');
    await waitUntil(() => embedded.isConnected(A) && embedded.isConnected(B), 'both boards connected');

    await first.endAsync();
    await waitUntil(() => gone.length === 1, 'the first connection gone');
    expect(embedded.isConnected(A)).toBe(true);

    await second.endAsync();
    await waitUntil(() => gone.length === 2, 'the second connection gone');
    expect(embedded.isConnected(A)).toBe(false);
    expect(embedded.isConnected(B)).toBe(true);

    // Back again after it was gone.
    await connect(embedded, A, 'token-1');
    await waitUntil(() => embedded.isConnected(A), 'the board back');
    await other.endAsync();
    await waitUntil(() => !embedded.isConnected(B), 'the other board gone');
    expect(embedded.isConnected(A)).toBe(true);
  });

  it('counts connections closed by a revocation: the board stays connected through the token it still has', async () => {
    const { embedded, ready } = await broker();
    await connect(embedded, A, 'token-1');
    await connect(embedded, A, 'token-2');
    await waitUntil(() => ready.length === 2, 'both connections ready');
    expect(embedded.dropSessions(A, 'token-1')).toBe(1);
    expect(embedded.isConnected(A)).toBe(true);
    expect(embedded.dropSessions(A)).toBe(1);
    expect(embedded.isConnected(A)).toBe(false);
  });
});
