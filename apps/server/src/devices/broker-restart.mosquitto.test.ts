import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { startMosquitto, type RunningMosquitto } from '../test/mosquitto.js';
import { createHardwareRow, createToken, hardwareRow, newBoard, recordEvents, waitUntil, waitUntilAnnounced } from '../test/hardware-kit.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import type { TestClient } from '../test/test-client.js';

/**
 * The external broker lost and back (issue 13): Mosquitto restarted under connected boards. The
 * server's own link comes back and subscribes again, the boards reconnect by themselves, and the
 * boards' states are right again soon after the broker's return, without a person.
 */
let mosquitto: RunningMosquitto;
let server: TestServer;
let admin: TestClient;
let dataDir: string;
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  mosquitto = await startMosquitto();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-broker-restart-'));
  server = await startTestServer({ MQTT_URL: mosquitto.serverUrl, DATA_DIR: dataDir });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
}, 60_000);

afterAll(async () => {
  for (const board of boards) await board.stop();
  await server?.stop();
  await mosquitto?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the broker restarted', () => {
  it('has every board back online, and their messages reach the server again', { timeout: 90_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { hardwareId } = await createHardwareRow(server, `Board ${i}`);
      const { token } = await createToken(admin, hardwareId);
      const board = newBoard({ url: mosquitto.url, hardwareId, token, heartbeatMs: 500, reconnectMs: 200, reconnectMaxMs: 1000 });
      boards.push(board);
      await board.start();
      ids.push(hardwareId);
    }
    for (const id of ids) await waitUntilAnnounced(server, id);

    const dropped = new Set<number>();
    const asked = new Set<number>();
    boards.forEach((board, i) =>
      board.on('event', (event) => {
        if (event.kind === 'disconnected') dropped.add(i);
        if (event.kind === 'command' && event.command.command === 'get') asked.add(i);
      }),
    );
    await mosquitto.restart(1000);
    // Each board lost its connection with the broker.
    expect([...dropped].sort()).toEqual([0, 1, 2]);
    const backAt = Date.now();
    // Every board online again within 10 s of the broker's return.
    await waitUntil(async () => (await Promise.all(ids.map((id) => hardwareRow(server, id)))).every((row) => row.online) && boards.every((b) => b.connected), 'every board back', 10_000);
    expect(Date.now() - backAt).toBeLessThan(10_000);
    // What a board published before the server's link subscribed again reached no server: once the
    // link is back, every board that was online is asked to announce again (its announce carries
    // every value).
    await waitUntil(() => asked.size === boards.length, 'every board asked to announce again', 10_000);

    // The server's subscription is back: a prop change made on a board reaches the server's hub.
    const recorded = recordEvents(server, ids[0]!);
    try {
      await waitUntil(async () => {
        await boards[0]!.pressButton();
        return recorded.events.find((event) => event.type === 'hardware.propChanged');
      }, 'a prop change after the restart', 10_000);
    } finally {
      recorded.stop();
    }
  });
});
