import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXHIBIT_CLOSE, type ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { freePort } from '../test/free-port.js';
import { newBoard, waitUntil } from '../test/hardware-kit.js';
import { createPlatformAdminByCli, startServerProcess, type ServerProcess } from '../test/server-process.js';
import { startSteadyLoad } from '../test/steady-load.js';
import { TestClient } from '../test/test-client.js';
import { createTestDatabase } from '../test/test-server.js';
import { queryRows } from '../test/postgres.js';

/**
 * Fault scenario 6 (issue 13, docs/reliability.md): SIGTERM while 8 writers save settings and 12
 * boards publish prop changes (QoS 1). The node drains, tells its exhibits to reconnect (1012),
 * stores every batched write and exits 0 within 10 s of the drain's end; nothing the API or the
 * broker acknowledged is lost, and the devices are back once a node runs again.
 */
const EXHIBITS = 12;
const WRITERS = 8;
const DRAIN_MS = 1000;
const MANIFEST: ManifestInput = {
  settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'start' }],
  statuses: [{ id: 'visitors', type: 'Integer', display: 'Visitors', default: 0 }],
};
const ADMIN = { email: 'sigterm@example.org', password: 'Faults-Passw0rd' };

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let env: Record<string, string>;
let node: ServerProcess;
const exhibits: Exhibit[] = [];
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-sigterm-'));
  env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    LOG_LEVEL: 'info',
  };
  node = await startServerProcess(env);
  await createPlatformAdminByCli(database.url, ADMIN);
}, 120_000);

afterAll(async () => {
  for (const exhibit of exhibits) exhibit.close();
  for (const board of boards) await board.stop();
  await node?.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the server stored (its database, read in a connection of the test's own). */
const query = <T>(sql: string, values?: unknown[]) => queryRows(database.url)<T>(sql, values);

const online = async (table: 'exhibits' | 'hardware') => Number((await query<{ n: string }>(`select count(*) as n from ${table} where online`))[0]!.n);

describe('a graceful stop (SIGTERM) under load', () => {
  it('drains, tells exhibits to reconnect, stores every acknowledged write and exits within 10 s', { timeout: 180_000 }, async () => {
    const admin = new TestClient(node.url);
    expect((await admin.post('/auth/user/login', ADMIN)).status).toBe(200);
    const organization = (await admin.post('/org-management/organization', { name: 'Stop Museum' })).body as { id: string };
    const site = (await admin.post('/org-management/site', { name: 'Hall', organizationId: organization.id })).body as { id: string };
    const ids: string[] = [];
    const closeCodes = new Map<string, number>();
    for (let i = 0; i < EXHIBITS; i += 1) {
      const exhibit = (await admin.post('/exhibit-management/exhibit', { name: `Exhibit ${i}`, siteId: site.id })).body as { id: string };
      const { token } = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body as { token: string };
      const sdk = new Exhibit({ serverUrl: node.url, exhibitId: exhibit.id, token, manifest: MANIFEST, reconnectMinMs: 200, reconnectMaxMs: 1000 });
      sdk.on('disconnected', ({ code }: { code: number }) => {
        if (!closeCodes.has(exhibit.id)) closeCodes.set(exhibit.id, code);
      });
      exhibits.push(sdk);
      ids.push(exhibit.id);
      const hardware = (await admin.post('/hardware-mgmt/hardware', { name: `Board ${i}`, siteId: site.id })).body as { id: string };
      const board = (await admin.post('/auth/hardware', { name: 'board', hardwareId: hardware.id })).body as { token: string };
      boards.push(newBoard({ url: `mqtt://127.0.0.1:${env.MQTT_PORT}`, hardwareId: hardware.id, token: board.token, heartbeatMs: 1000, reconnectMs: 200, reconnectMaxMs: 1000 }));
    }
    await Promise.all(exhibits.map((e) => e.ready()));
    await Promise.all(boards.map((b) => b.start()));
    await waitUntil(async () => (await online('exhibits')) === EXHIBITS, 'every exhibit online');
    await waitUntil(async () => (await online('hardware')) === EXHIBITS, 'every board online');

    // Saves, status changes and QoS 1 prop changes, as fast as they are acknowledged.
    const writer = new TestClient(node.url);
    expect((await writer.post('/auth/user/login', ADMIN)).status).toBe(200);
    const load = startSteadyLoad({
      settings: { writer, exhibitIds: ids.slice(0, WRITERS), settingId: 'kiosk_name' },
      statuses: { exhibits, statusId: 'visitors' },
      boards,
    });
    await load.running();
    // Load for a while, so that batched writes are under way when the signal comes.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const signalledAt = Date.now();
    await node.kill('SIGTERM');
    const stopMs = Date.now() - signalledAt;
    const { exitCode } = node.child;
    await load.stop();

    expect(exitCode, node.output()).toBe(0);
    expect(stopMs).toBeLessThan(DRAIN_MS + 10_000);
    expect(node.output()).not.toMatch(/did not stop within/);
    // Every exhibit was told to reconnect, not dropped.
    await waitUntil(() => closeCodes.size === EXHIBITS, 'every exhibit saw its connection end');
    expect([...closeCodes.values()].every((code) => code === EXHIBIT_CLOSE.restarting)).toBe(true);
    // Stored before the process exited: nothing is waiting anywhere now.
    await load.expectNothingLost(query, { withinMs: 0 });
    // Stopped on purpose: every exhibit offline with the reason 'shutdown', none left reading online.
    expect(await online('exhibits')).toBe(0);
    const reasons = await query<{ reason: string }>(
      `select distinct on (exhibit_id) reason from exhibit_connections where not online order by exhibit_id, at desc`,
    );
    expect(reasons.map((r) => r.reason)).toEqual(Array(EXHIBITS).fill('shutdown'));

    node = await startServerProcess(env);
    const restartedAt = Date.now();
    await waitUntil(async () => (await online('exhibits')) === EXHIBITS, 'every exhibit back', 10_000);
    await waitUntil(async () => (await online('hardware')) === EXHIBITS, 'every board back', 10_000);
    const backMs = Date.now() - restartedAt;
    console.log(
      `[fault 6] SIGTERM under load: exited 0 in ${stopMs} ms (drain ${DRAIN_MS} ms); ${load.settings.size} writers, ${load.statusesSent} status changes and ${load.props.size} boards, ` +
        `none lost; every exhibit told 1012; all devices back ${backMs} ms after the restart`,
    );
  });
});
