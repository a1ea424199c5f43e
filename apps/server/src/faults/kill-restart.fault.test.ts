import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
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
 * Fault scenario 1 (issue 13, docs/reliability.md): the only node killed with `kill -9` while 16
 * writers save settings, 20 SDK exhibits and 20 boards are connected; the service manager starts
 * it again at once. Every exhibit is back within 5 s of the restart, every board within 10 s, and
 * no setting the API acknowledged is lost.
 */
const EXHIBITS = 20;
const WRITERS = 16;
const MANIFEST: ManifestInput = {
  settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'start' }],
  statuses: [{ id: 'visitors', type: 'Integer', display: 'Visitors', default: 0 }],
};
const ADMIN = { email: 'faults@example.org', password: 'Faults-Passw0rd' };

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let env: Record<string, string>;
let node: ServerProcess;
const exhibits: Exhibit[] = [];
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-fault-'));
  // Fixed ports: the restarted node takes the same addresses, as a service manager's restart does.
  env = { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };
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

async function count(sql: string): Promise<number> {
  return Number((await query<{ n: string }>(sql))[0]!.n);
}

describe('the only node killed and restarted', () => {
  it('brings every device back and loses no acknowledged write', { timeout: 180_000 }, async () => {
    const admin = new TestClient(node.url);
    expect((await admin.post('/auth/user/login', ADMIN)).status).toBe(200);
    const organization = (await admin.post('/org-management/organization', { name: 'Fault Museum' })).body as { id: string };
    const site = (await admin.post('/org-management/site', { name: 'Hall', organizationId: organization.id })).body as { id: string };
    const ids: string[] = [];
    for (let i = 0; i < EXHIBITS; i += 1) {
      const exhibit = (await admin.post('/exhibit-management/exhibit', { name: `Exhibit ${i}`, siteId: site.id })).body as { id: string };
      const { token } = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body as { token: string };
      const sdk = new Exhibit({ serverUrl: node.url, exhibitId: exhibit.id, token, manifest: MANIFEST, reconnectMinMs: 100, reconnectMaxMs: 1000 });
      exhibits.push(sdk);
      ids.push(exhibit.id);
      const hardware = (await admin.post('/hardware-mgmt/hardware', { name: `Board ${i}`, siteId: site.id })).body as { id: string };
      const board = (await admin.post('/auth/hardware', { name: 'board', hardwareId: hardware.id })).body as { token: string };
      boards.push(newBoard({ url: `mqtt://127.0.0.1:${env.MQTT_PORT}`, hardwareId: hardware.id, token: board.token, heartbeatMs: 1000, reconnectMs: 200, reconnectMaxMs: 1000 }));
    }
    await Promise.all(exhibits.map((e) => e.ready()));
    await Promise.all(boards.map((b) => b.start()));
    await waitUntil(async () => (await count('select count(*) as n from exhibits where online')) === EXHIBITS, 'every exhibit online');
    await waitUntil(async () => (await count('select count(*) as n from hardware where online')) === EXHIBITS, 'every board online');

    // 16 writers, each saving its own exhibit's setting again and again, status changes from every
    // exhibit and QoS 1 prop changes from every board: the last write acknowledged is what must survive.
    // One signed-in console for all writers; its session lives in the database and outlives the process.
    const writer = new TestClient(node.url);
    expect((await writer.post('/auth/user/login', ADMIN)).status).toBe(200);
    const load = startSteadyLoad({ settings: { writer, exhibitIds: ids.slice(0, WRITERS), settingId: 'kiosk_name' }, statuses: { exhibits, statusId: 'visitors' }, boards });
    await load.running();

    await node.kill('SIGKILL');
    node = await startServerProcess(env);
    const restartedAt = Date.now();
    await waitUntil(async () => (await count('select count(*) as n from exhibits where online')) === EXHIBITS, 'every exhibit back', 5000);
    const exhibitsMs = Date.now() - restartedAt;
    await waitUntil(async () => (await count('select count(*) as n from hardware where online')) === EXHIBITS, 'every board back', 10_000);
    const boardsMs = Date.now() - restartedAt;
    // Writes go on against the new process a little, then stop: every source acknowledged again.
    const before = { settings: new Map(load.settings), props: new Map(load.props) };
    await waitUntil(
      () => [...load.settings].every(([id, n]) => n > (before.settings.get(id) ?? 0)) && [...load.props].every(([id, n]) => n > (before.props.get(id) ?? 0)),
      'writes acknowledged after the restart',
      20_000,
    );
    await load.stop();
    // The stored value is the last one acknowledged (or one sent after it, applied but not answered before the kill).
    await load.expectNothingLost(query);
    console.log(
      `[fault 1] after kill -9 and restart: exhibits back in ${exhibitsMs} ms, boards in ${boardsMs} ms; ${load.settings.size} writers, ` +
        `${load.statusesSent} status changes and ${load.props.size} boards, none of their last acknowledged writes lost`,
    );
  });
});
