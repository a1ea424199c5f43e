import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EXHIBIT_CLOSE } from '@plinth/shared';
import { createExhibit, createHardware, createOrganization, createSite, userWith } from '../test/factories.js';
import type { TestClient } from '../test/test-client.js';
import { startLatencyProxy } from '../test/latency-proxy.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

/**
 * A token deleted while a device is connecting with it must never leave that connection open,
 * whatever the timing: each round connects and deletes the token at once, with the deletion
 * started from 0 to 48 ms after the connection, 50 rounds per kind of device.
 *
 * Exhibits run on two nodes sharing PostgreSQL and Redis, the exhibit on node B and the deletion
 * on node A; node B sits 15 ms from Redis (a latency proxy), so that a node learning of a
 * revocation through Redis can only be trusted once its subscription is confirmed.
 */
const ROUNDS = 50;
const CLOSED_WITHIN_MS = 1000;
const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

let server: TestServer;
let far: TestServer;
let proxy: Awaited<ReturnType<typeof startLatencyProxy>>;
let manager: TestClient;
let exhibitId: string;

beforeAll(async () => {
  proxy = await startLatencyProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) }, 15);
  server = await startTestServer({ REDIS_URL: REDIS.href });
  far = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` }, { databaseUrl: server.databaseUrl });
  const org = await createOrganization(server.deps.db);
  const site = await createSite(server.deps.db, org.id);
  exhibitId = (await createExhibit(server.deps.db, site.id)).id;
  manager = await userWith(server, ['organization', org.id, 'MANAGER']);
});
afterAll(async () => {
  await far?.stop();
  await server?.stop();
  await proxy?.close();
});

const delayFor = (round: number) => (round % 25) * 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function created<T>(request: Promise<{ status: number; body: T }>): Promise<T> {
  const res = await request;
  expect(res.status).toBe(200);
  return res.body;
}

/** Answers true when the client closes within `timeoutMs`, else false. */
function closes(client: mqtt.MqttClient, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('revoking a token while a device connects with it', () => {
  it(`closes every exhibit connection that used it, on any node (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
    const survivors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const token = await created(manager.post('/auth/exhibit', { name: `race ${round}`, exhibitId }));
      const { credential } = await created(server.client().post('/auth/exhibit/authenticate', { exhibitId, token: token.token }));
      const socket = new WebSocket(`${far.url.replace(/^http/, 'ws')}/ws?client=exhibit`);
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', exhibitId, token: credential })));
      await sleep(delayFor(round));
      expect((await manager.delete(`/auth/exhibit/delete-token/${token.id}`)).status).toBe(200);
      const code = await Promise.race([closed, sleep(CLOSED_WITHIN_MS).then(() => null)]);
      if (code === null) {
        survivors.push(round);
        socket.terminate();
      } else {
        expect(code).toBe(EXHIBIT_CLOSE.unauthorized);
      }
    }
    expect(survivors).toEqual([]);
  });

  it(`drops every board connection that used it (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
    const boards = await startTestServer();
    const org = await createOrganization(boards.deps.db);
    const hardwareId = (await createHardware(boards.deps.db, (await createSite(boards.deps.db, org.id)).id)).id;
    const manager = await userWith(boards, ['organization', org.id, 'MANAGER']);
    const survivors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const token = await created(manager.post('/auth/hardware', { name: `race ${round}`, hardwareId }));
      const board = mqtt.connect(`mqtt://127.0.0.1:${boards.mqttPort}`, {
        username: hardwareId,
        password: token.token,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      board.on('error', () => undefined);
      const closed = closes(board, CLOSED_WITHIN_MS + 200 + delayFor(round));
      await sleep(delayFor(round));
      expect((await manager.delete(`/auth/hardware/delete-token/${token.id}`)).status).toBe(200);
      if (!(await closed)) survivors.push(round);
      board.end(true);
    }
    await boards.stop();
    expect(survivors).toEqual([]);
  });
});
