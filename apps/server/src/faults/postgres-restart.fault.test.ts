import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { freePort } from '../test/free-port.js';
import { newBoard, waitUntil } from '../test/hardware-kit.js';
import { startPrivateCluster, type PrivateCluster } from '../test/pg-cluster.js';
import { createPlatformAdminByCli, startServerProcess, type ServerProcess } from '../test/server-process.js';
import { startSteadyLoad } from '../test/steady-load.js';
import { TestClient } from '../test/test-client.js';
import { queryRows } from '../test/postgres.js';

/**
 * Fault scenario 3 (issue 13, docs/reliability.md): PostgreSQL itself stopped and started again
 * (a cluster of the test's own, `pg_ctl stop -m fast`, 3 s down) while 8 writers save settings and
 * 8 boards publish prop changes. The API answers 503 while it is gone and never hangs a request;
 * devices stay connected; the batched prop writes the database missed are held and stored when
 * it is back; every acknowledged setting and every PUBACKed prop change is there afterwards.
 */
const DEVICES = 8;
const DOWN_MS = 3000;
const CONNECT_TIMEOUT_MS = 1500;
const MANIFEST: ManifestInput = {
  settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'start' }],
  statuses: [{ id: 'visitors', type: 'Integer', display: 'Visitors', default: 0 }],
};
const ADMIN = { email: 'pg-restart@example.org', password: 'Faults-Passw0rd' };

let cluster: PrivateCluster;
let databaseUrl: string;
let dataDir: string;
let mqttPort: number;
let node: ServerProcess;
const exhibits: Exhibit[] = [];
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  cluster = await startPrivateCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database plinth');
  await admin.end();
  databaseUrl = cluster.url.replace(/\/postgres$/, '/plinth');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pgfault-'));
  mqttPort = await freePort();
  node = await startServerProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MQTT_PORT: String(mqttPort),
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    LOG_LEVEL: 'info',
  });
  await createPlatformAdminByCli(databaseUrl, ADMIN);
}, 120_000);

afterAll(async () => {
  for (const exhibit of exhibits) exhibit.close();
  for (const board of boards) await board.stop();
  await node?.kill('SIGKILL');
  cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the server stored (its database, read in a connection of the test's own). */
const query = <T>(sql: string, values?: unknown[]) => queryRows(databaseUrl)<T>(sql, values);

describe('PostgreSQL restarted under load', () => {
  it('answers 503 while it is gone, keeps devices connected, and stores every acknowledged write once it is back', { timeout: 180_000 }, async () => {
    const admin = new TestClient(node.url);
    expect((await admin.post('/auth/user/login', ADMIN)).status).toBe(200);
    const organization = (await admin.post('/org-management/organization', { name: 'Outage Museum' })).body as { id: string };
    const site = (await admin.post('/org-management/site', { name: 'Hall', organizationId: organization.id })).body as { id: string };
    const ids: string[] = [];
    let exhibitDisconnects = 0;
    for (let i = 0; i < DEVICES; i += 1) {
      const exhibit = (await admin.post('/exhibit-management/exhibit', { name: `Exhibit ${i}`, siteId: site.id })).body as { id: string };
      const { token } = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body as { token: string };
      const sdk = new Exhibit({ serverUrl: node.url, exhibitId: exhibit.id, token, manifest: MANIFEST, reconnectMinMs: 200, reconnectMaxMs: 1000 });
      sdk.on('disconnected', () => (exhibitDisconnects += 1));
      exhibits.push(sdk);
      ids.push(exhibit.id);
      const hardware = (await admin.post('/hardware-mgmt/hardware', { name: `Board ${i}`, siteId: site.id })).body as { id: string };
      const board = (await admin.post('/auth/hardware', { name: 'board', hardwareId: hardware.id })).body as { token: string };
      boards.push(newBoard({ url: `mqtt://127.0.0.1:${mqttPort}`, hardwareId: hardware.id, token: board.token, heartbeatMs: 500 }));
    }
    await Promise.all(exhibits.map((e) => e.ready()));
    await Promise.all(boards.map((b) => b.start()));
    let boardDisconnects = 0;
    for (const board of boards) board.on('event', (e: { kind: string }) => (e.kind === 'disconnected' ? (boardDisconnects += 1) : undefined));

    const writer = new TestClient(node.url);
    expect((await writer.post('/auth/user/login', ADMIN)).status).toBe(200);
    const load = startSteadyLoad({ settings: { writer, exhibitIds: ids, settingId: 'kiosk_name' }, statuses: { exhibits, statusId: 'visitors' }, boards });
    await load.running();

    const { stoppedAt, startedAt } = await cluster.restart(DOWN_MS);
    const refusedDuringOutage = load.answers.get(503) ?? 0;
    // The API is back: a read answers 200 again.
    await waitUntil(async () => (await admin.get('/org-management/organization').catch(() => null))?.status === 200, 'the API back', 10_000);
    const apiBackMs = Date.now() - startedAt;
    const before = new Map(load.settings);
    await waitUntil(() => [...load.settings].every(([id, n]) => n > (before.get(id) ?? 0)), 'saves acknowledged again', 20_000);
    await load.stop();
    const ackedWhileDown = load.propAckTimes.filter((at) => at >= stoppedAt && at <= startedAt).length;

    expect(refusedDuringOutage, `answers: ${JSON.stringify([...load.answers])}`).toBeGreaterThan(0);
    expect([...load.answers.keys()].every((status) => status === 200 || status === 503), `answers: ${JSON.stringify([...load.answers])}`).toBe(true);
    // No request hung: the slowest answer is within the connect timeout and a statement's time.
    expect(load.slowestMs).toBeLessThan(CONNECT_TIMEOUT_MS + 3500);
    expect(apiBackMs).toBeLessThan(5000);
    // Devices stayed connected through the outage.
    expect(exhibitDisconnects).toBe(0);
    expect(boardDisconnects).toBe(0);
    expect(ackedWhileDown, 'no prop change was acknowledged while the database was down: nothing was held').toBeGreaterThan(0);
    // Every acknowledged write is stored (the batched ones held through the outage included).
    await load.expectNothingLost(query);
    expect(node.output()).toMatch(/the database cannot be reached: \d+ boards' prop value writes held/);
    // Logged right after the held batch is stored: its line can reach this process a moment after
    // the rows are seen (the child's output arrives through a pipe).
    await waitUntil(() => /the database is back: storing the held boards' prop value writes/.test(node.output()), 'the log line of the held prop writes stored', 10_000);
    console.log(
      `[fault 3] PostgreSQL restarted (down ${startedAt - stoppedAt} ms): ${refusedDuringOutage} saves answered 503, slowest answer ${load.slowestMs} ms, ` +
        `API back ${apiBackMs} ms after the database; ${ackedWhileDown} prop changes PUBACKed while it was down, all stored after; ` +
        `${load.settings.size} writers, ${load.statusesSent} status changes and ${load.props.size} boards, none lost; 0 device disconnects`,
    );
  });
});
