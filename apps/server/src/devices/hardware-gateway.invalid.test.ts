import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hardwareTopic, type BoardChannel } from '@plinth/shared';
import type { Clock } from '../lib/clock.js';
import { createHardwareRow, createToken, hardwareRow, waitUntil } from '../test/hardware-kit.js';
import { captureLogs, type LogCapture } from '../test/log-capture.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

/** A clock the test moves by hand, to step past the log's once-a-minute limit. */
let nowMs = Date.now();
const clock: Clock = { now: () => new Date(nowMs) };

let server: TestServer;
let logs: LogCapture;
let admin: TestClient;
const clients: mqtt.MqttClient[] = [];

beforeAll(async () => {
  logs = captureLogs('info');
  server = await startTestServer({}, { logger: logs.logger, clock });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
});
afterAll(async () => {
  await server?.stop();
});

/** A board connected with its own credentials, publishing raw payloads (what a buggy firmware sends). */
async function rawBoard() {
  const ids = await createHardwareRow(server);
  const { token } = await createToken(admin, ids.hardwareId);
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
    username: ids.hardwareId,
    password: token,
    reconnectPeriod: 0,
    protocolVersion: 4,
    clientId: `raw-${Math.random().toString(36).slice(2, 10)}`,
  });
  clients.push(client);
  const publish = (channel: BoardChannel, payload: string | object) =>
    client.publishAsync(hardwareTopic(ids.hardwareId, channel), typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });
  return { ...ids, publish };
}

const droppedLines = (hardwareId: string) => logs.lines.filter((line) => line.hardwareId === hardwareId && /invalid/i.test(String(line.msg)));

describe('board messages that fail validation', () => {
  it('are counted in the board’s health with the reason, and shown in the hardware answer', async () => {
    const board = await rawBoard();
    await board.publish('heartbeat', 'not json at all');
    await board.publish('heartbeat', { voltage: 'high' });
    await board.publish('log', { level: 'info', message: 'boot\u0000' });
    await board.publish('heartbeat', { voltage: 5.1, exhibitState: 'ok' });
    const row = await waitUntil(async () => {
      const r = await hardwareRow(server, board.hardwareId);
      return r.invalidMessages >= 3 && r.voltage === 5.1 ? r : null;
    }, 'three dropped messages counted');
    expect(row.invalidMessages).toBe(3);
    expect(row.lastInvalidReason).toBe('log: message: must not contain a NUL character (\\u0000)');
    expect(row.lastInvalidAt).toBeInstanceOf(Date);
    const answer = await admin.get(`/hardware-mgmt/hardware/${board.hardwareId}`);
    expect(answer.body).toMatchObject({ invalidMessages: 3, lastInvalidReason: row.lastInvalidReason, lastInvalidAt: expect.any(String) });
  });

  it('are logged with their reason at most once a minute per board, with the count of the ones not logged', async () => {
    const board = await rawBoard();
    for (let i = 0; i < 5; i++) await board.publish('heartbeat', { temp: 'hot' });
    await waitUntil(async () => (await hardwareRow(server, board.hardwareId)).invalidMessages === 5, 'five dropped');
    expect(droppedLines(board.hardwareId)).toEqual([
      expect.objectContaining({ level: 40, channel: 'heartbeat', reason: 'heartbeat: temp: Invalid input: expected number, received string' }),
    ]);
    nowMs += 61_000;
    await board.publish('prop', { peripheralId: 'relay1' });
    await waitUntil(() => droppedLines(board.hardwareId).length === 2, 'the next line after a minute');
    expect(droppedLines(board.hardwareId)[1]).toMatchObject({ channel: 'prop', suppressed: 4 });
    expect(logs.text()).not.toContain('"hot"');
  });

  it('never make another board lose its heartbeat stored in the same batch', async () => {
    const bad = await rawBoard();
    const good = await rawBoard();
    await Promise.all([
      bad.publish('heartbeat', { voltage: 3.3, exhibitState: 'run\u0000ning' }),
      good.publish('heartbeat', { voltage: 4.2, exhibitState: 'running' }),
    ]);
    const row = await waitUntil(async () => {
      const r = await hardwareRow(server, good.hardwareId);
      return r.voltage !== null ? r : null;
    }, "the good board's heartbeat stored");
    expect(row).toMatchObject({ voltage: 4.2, exhibitState: 'running' });
    const badRow = await waitUntil(async () => {
      const r = await hardwareRow(server, bad.hardwareId);
      return r.invalidMessages === 1 ? r : null;
    }, "the bad board's heartbeat counted");
    expect(badRow.voltage).toBeNull();
  });
});
