import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { createHardware, createOrganization, createSite } from '../test/factories.js';
import { startMosquitto, type RunningMosquitto } from '../test/mosquitto.js';
import { createToken, newBoard, waitUntil } from '../test/hardware-kit.js';
import { startSteadyLoad } from '../test/steady-load.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import type { TestClient } from '../test/test-client.js';
import { queryRows } from '../test/postgres.js';

/**
 * Fault scenario 4 (issue 13, docs/reliability.md): Mosquitto restarted under a venue's fleet
 * (1,000 boards by default, FAULT_BOARDS to change it). Every board is online again, in the
 * database the console reads and on its own connection, within 10 s of the broker's return.
 */
const BOARDS = Number(process.env.FAULT_BOARDS ?? 1000);
const DOWN_MS = 2000;
const LOADED_BOARDS = Math.min(100, BOARDS);

let mosquitto: RunningMosquitto;
let server: TestServer;
let admin: TestClient;
let dataDir: string;
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  mosquitto = await startMosquitto();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-fleet-restart-'));
  server = await startTestServer({ MQTT_URL: mosquitto.serverUrl, DATA_DIR: dataDir });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
}, 60_000);

afterAll(async () => {
  await Promise.all(boards.map((board) => board.stop()));
  await server?.stop();
  await mosquitto?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the server stored (its database, read in a connection of the test's own). */
const query = <T>(sql: string, values?: unknown[]) => queryRows(server.databaseUrl)<T>(sql, values);

/** Boards the database says are online, read on the test's own connection (the server's pool is busy with 1,000 boards). */
async function onlineCount(ids: string[]): Promise<number> {
  const rows = await query<{ n: string }>('select count(*) as n from hardware where online and id = any($1::uuid[])', [ids]);
  return Number(rows[0]!.n);
}

/** Runs `work` over `items`, `width` at a time. */
async function inWaves<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

describe(`Mosquitto restarted under ${BOARDS} boards`, () => {
  it('has every board online again within 10 s of its return', { timeout: 600_000 }, async () => {
    const organization = await createOrganization(server.deps.db);
    const site = await createSite(server.deps.db, organization.id, 'Fleet hall');
    const ids: string[] = [];
    for (let i = 0; i < BOARDS; i += 1) ids.push((await createHardware(server.deps.db, site.id, `Board ${i}`)).id);
    const preparedAt = Date.now();
    // Each token is a Mosquitto client the server adds through dynamic security.
    const tokens = new Map<string, string>();
    // Ten at a time: Mosquitto answers dynamic-security requests one after another, each rewriting its file.
    await inWaves(ids, 10, async (id) => tokens.set(id, (await createToken(admin, id)).token));
    for (const id of ids) {
      boards.push(newBoard({ url: mosquitto.url, hardwareId: id, token: tokens.get(id)!, heartbeatMs: 10_000, reconnectMs: 500, reconnectMaxMs: 2000 }));
    }
    await inWaves(boards, 50, (board) => board.start());
    await waitUntil(async () => (await onlineCount(ids)) === BOARDS, 'every board online', 120_000);
    const connectMs = Date.now() - preparedAt;

    // A hundred boards keep publishing prop changes (QoS 1, about 1,000 a second) through the restart.
    const load = startSteadyLoad({ boards: boards.slice(0, LOADED_BOARDS), pauseMs: 100 });
    await load.running();
    let dropped = 0;
    for (const board of boards) board.on('event', (event) => (event.kind === 'disconnected' ? (dropped += 1) : undefined));
    await mosquitto.restart(DOWN_MS);
    const backAt = Date.now();
    expect(dropped).toBe(BOARDS);
    let allConnectedMs = 0;
    let online = 0;
    await waitUntil(
      async () => {
        if (!allConnectedMs && boards.every((b) => b.connected)) allConnectedMs = Date.now() - backAt;
        online = await onlineCount(ids);
        return allConnectedMs > 0 && online === BOARDS;
      },
      'every board back',
      10_000,
    ).catch(async (error: Error) => {
      const rows = await query<{ history: string }>(
        "select string_agg(h.online::text || ':' || h.reason || '@' || to_char(h.at, 'MI:SS.MS'), ' ' order by h.at) as history from hardware x join hardware_connection_history h on h.hardware_id = x.id where not x.online and x.id = any($1::uuid[]) group by x.id",
        [ids],
      );
      throw new Error(`${error.message}: ${boards.filter((b) => b.connected).length} connected, ${online} online; back at ${new Date(backAt).toISOString()}; offline ones: ${rows.map((r) => r.history).join(' | ')}`);
    });
    const onlineMs = Date.now() - backAt;
    expect(onlineMs).toBeLessThan(10_000);
    const before = new Map(load.props);
    await waitUntil(() => [...load.props].every(([id, n]) => n > before.get(id)!), 'prop changes acknowledged after the restart', 10_000);
    await load.stop();
    await load.expectNothingLost(query);
    console.log(
      `[fault 4] Mosquitto down ${DOWN_MS} ms under ${BOARDS} boards (tokens and connections in ${connectMs} ms): ` +
        `every board reconnected ${allConnectedMs} ms and read online ${onlineMs} ms after its return; ${load.propAckTimes.length} prop changes from ${LOADED_BOARDS} boards, none of their last acknowledged lost`,
    );
  });
});
