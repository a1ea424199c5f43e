import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardwareTopic, type ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { runCli } from '../cli.js';
import { freePort } from '../test/free-port.js';
import { newBoard, waitUntil } from '../test/hardware-kit.js';
import { startPrivateCluster, type PrivateCluster } from '../test/pg-cluster.js';
import { startServerProcess, type ServerProcess } from '../test/server-process.js';
import { TestClient } from '../test/test-client.js';

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
const MANIFEST: ManifestInput = { settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'start' }] };
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
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  try {
    expect(await runCli(['user', 'create', '--email', ADMIN.email, '--password', ADMIN.password, '--platform-admin'], { write: () => true }, { write: () => true })).toBe(0);
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}, 120_000);

afterAll(async () => {
  for (const exhibit of exhibits) exhibit.close();
  for (const board of boards) await board.stop();
  await node?.kill('SIGKILL');
  cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

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

    let loaded = true;
    const statuses = new Map<number, number>();
    let slowest = 0;
    const ackedSettings = new Map<string, number>();
    const writer = new TestClient(node.url);
    expect((await writer.post('/auth/user/login', ADMIN)).status).toBe(200);
    const writers = ids.map(async (exhibitId) => {
      for (let n = 1; loaded; n += 1) {
        const startedAt = Date.now();
        const res = await writer.post(`/exhibit-management/exhibit/${exhibitId}/setting/kiosk_name`, { value: `v${n}` }).catch(() => null);
        slowest = Math.max(slowest, Date.now() - startedAt);
        statuses.set(res?.status ?? 0, (statuses.get(res?.status ?? 0) ?? 0) + 1);
        if (res?.status === 200) ackedSettings.set(exhibitId, n);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    // Prop changes: the last one each board's PUBACK came back for, and how many were PUBACKed while the database was down.
    const ackedProps = new Map<string, number>();
    let down = false;
    let ackedWhileDown = 0;
    const publishers = boards.map(async (board) => {
      for (let n = 1; loaded; n += 1) {
        const client = board.mqttClient;
        const sent =
          client?.connected &&
          (await Promise.race([
            client
              .publishAsync(hardwareTopic(board.hardwareId, 'prop'), JSON.stringify({ peripheralId: 'text1', propName: 'text', value: `p${n}` }), { qos: 1 })
              .then(() => true, () => false),
            new Promise<boolean>((resolve) => setTimeout(resolve, 3000, false)),
          ]));
        if (sent) {
          ackedProps.set(board.hardwareId, n);
          if (down) ackedWhileDown += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    await waitUntil(() => ackedSettings.size === DEVICES && ackedProps.size === DEVICES, 'every writer and board acknowledged');

    down = true;
    const { stoppedAt, startedAt } = await cluster.restart(DOWN_MS);
    down = false;
    const refusedDuringOutage = statuses.get(503) ?? 0;
    // The API is back: a read answers 200 again.
    await waitUntil(async () => (await admin.get('/org-management/organization').catch(() => null))?.status === 200, 'the API back', 10_000);
    const apiBackMs = Date.now() - startedAt;
    const before = new Map(ackedSettings);
    await waitUntil(() => [...ackedSettings].every(([id, n]) => n > (before.get(id) ?? 0)), 'saves acknowledged again', 20_000);
    loaded = false;
    await Promise.all([...writers, ...publishers]);

    expect(refusedDuringOutage, `answers: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    expect([...statuses.keys()].every((status) => status === 200 || status === 503), `answers: ${JSON.stringify([...statuses])}`).toBe(true);
    // No request hung: the slowest answer is within the connect timeout and a statement's time.
    expect(slowest).toBeLessThan(CONNECT_TIMEOUT_MS + 3500);
    expect(apiBackMs).toBeLessThan(5000);
    // Devices stayed connected through the outage.
    expect(exhibitDisconnects).toBe(0);
    expect(boardDisconnects).toBe(0);
    expect(ackedWhileDown, 'no prop change was acknowledged while the database was down: nothing was held').toBeGreaterThan(0);

    // Every acknowledged write is stored (the batched ones held through the outage included).
    await waitUntil(async () => {
      for (const [hardwareId, n] of ackedProps) {
        const rows = await query<{ peripherals: { id: string; props: { name: string; value: unknown }[] }[] }>('select peripherals from hardware where id = $1', [hardwareId]);
        const value = rows[0]?.peripherals.find((p) => p.id === 'text1')?.props.find((p) => p.name === 'text')?.value;
        if (Number(String(value).slice(1)) < n) return false;
      }
      return true;
    }, 'every PUBACKed prop change stored', 10_000);
    for (const [exhibitId, n] of ackedSettings) {
      const rows = await query<{ value: unknown }>(
        `select value from exhibit_settings where exhibit_id = $1 and manifest_id = 'kiosk_name' and list_manifest_id = ''`,
        [exhibitId],
      );
      expect(Number(String(rows[0]?.value).replace(/^"?v/, '').replace(/"$/, ''))).toBeGreaterThanOrEqual(n);
    }
    expect(node.output()).toMatch(/the database cannot be reached: \d+ prop value writes held/);
    expect(node.output()).toMatch(/the database is back: storing the held prop value writes/);
    console.log(
      `[fault 3] PostgreSQL restarted (down ${startedAt - stoppedAt} ms): ${refusedDuringOutage} saves answered 503, slowest answer ${slowest} ms, ` +
        `API back ${apiBackMs} ms after the database; ${ackedWhileDown} prop changes PUBACKed while it was down, all stored after; ` +
        `${ackedSettings.size} writers and ${ackedProps.size} boards, none lost; 0 device disconnects`,
    );
  });
});
