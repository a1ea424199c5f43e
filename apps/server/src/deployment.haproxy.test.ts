import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { runCli } from './cli.js';
import { freePort } from './test/free-port.js';
import { openDatabase } from './db/client.js';
import { insertScheduledEvents, listEventsOfExhibits, type NewScheduledEvent } from './modules/scheduling/scheduling.repository.js';
import { newBoard, waitUntil } from './test/hardware-kit.js';
import { scheduleTestManifest, stepsDone, stepsDoneTwice } from './test/schedule-kit.js';
import { startSteadyLoad } from './test/steady-load.js';
import { startMosquitto, type RunningMosquitto } from './test/mosquitto.js';
import { startServerProcess, type ServerProcess } from './test/server-process.js';
import { createTestDatabase } from './test/test-server.js';
import { TestClient } from './test/test-client.js';
import { queryRows } from './test/postgres.js';

/**
 * The layout of docs/deployment.md, on this machine: Debian's HAProxy in front of two Plinth nodes
 * (processes) sharing PostgreSQL, Redis and Mosquitto, with HAProxy checking /readyz. An exhibit
 * connected through HAProxy whose node is killed (kill -9) is back online through the other node,
 * and the API answers through HAProxy all along.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MANIFEST: ManifestInput = { statuses: [{ id: 'count', type: 'Integer', display: 'Visitors', default: 0 }] };
const ADMIN = { email: 'ops@example.org', password: 'Deploy-Passw0rd' };

/** The HAProxy configuration of docs/deployment.md, with this test's ports and faster checks. */
function haproxyConfig(input: { port: number; nodes: number[]; balance?: string; mqttPort: number; brokerPort: number }): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    'frontend plinth',
    `  bind 127.0.0.1:${input.port}`,
    '  default_backend plinth_nodes',
    'backend plinth_nodes',
    `  balance ${input.balance ?? 'leastconn'}`,
    '  option redispatch',
    '  retries 3',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...input.nodes.map((port, i) => `  server node${i + 1} 127.0.0.1:${port} check`),
    '# Boards: MQTT over TCP, passed through to the broker.',
    'frontend mqtt',
    '  mode tcp',
    `  bind 127.0.0.1:${input.mqttPort}`,
    '  timeout client 2h',
    '  default_backend mosquitto',
    'backend mosquitto',
    '  mode tcp',
    '  timeout server 2h',
    `  server broker1 127.0.0.1:${input.brokerPort} check`,
    '',
  ].join('\n');
}

let database: { url: string; drop: () => Promise<void> };
let mosquitto: RunningMosquitto;
const nodes: ServerProcess[] = [];
const dirs: string[] = [];
let haproxy: ChildProcess;
let haproxyOutput = '';
let url: string;
let boardUrl: string;
const envs: Record<string, string>[] = [];
const open: Exhibit[] = [];
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  mosquitto = await startMosquitto();
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-node-'));
    dirs.push(dataDir);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      MQTT_URL: mosquitto.serverUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_HEARTBEAT_MS: '500',
      NODE_LOST_AFTER_MS: '3000',
      SHUTDOWN_DRAIN_MS: '0',
      // A dead node's claimed occurrences are taken over 2 s after their lease was last renewed.
      SCHEDULER_POLL_MS: '250',
      SCHEDULER_LEASE_MS: '2000',
    };
    envs.push(env);
    nodes.push(await startServerProcess(env));
  }
  const port = await freePort();
  const mqttPort = await freePort();
  boardUrl = `mqtt://127.0.0.1:${mqttPort}`;
  const configFile = path.join(dirs[0]!, 'haproxy.cfg');
  fs.writeFileSync(configFile, haproxyConfig({ port, nodes: ports, balance: 'first', mqttPort, brokerPort: Number(new URL(mosquitto.url).port) }));
  haproxy = spawn(fs.existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy', ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  haproxy.stdout!.on('data', (d: Buffer) => (haproxyOutput += d.toString()));
  haproxy.stderr!.on('data', (d: Buffer) => (haproxyOutput += d.toString()));
  url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, `HAProxy in front of the nodes: ${haproxyOutput}`, 20_000);
}, 180_000);

afterAll(async () => {
  for (const exhibit of open) exhibit.close();
  for (const board of boards) await board.stop();
  haproxy?.kill('SIGTERM');
  for (const node of nodes) await node.kill('SIGKILL');
  await mosquitto?.stop();
  await database?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `plinth …` against the shared database, as an operator would. */
async function plinth(...argv: string[]): Promise<void> {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };
  Object.assign(process.env, { DATABASE_URL: database.url, REDIS_URL });
  try {
    const err: string[] = [];
    const code = await runCli(argv, { write: () => true }, { write: (t: string) => err.push(t) > 0 });
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

async function heldBy(exhibitId: string): Promise<{ online: boolean; heldBy: string | null }> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ online: boolean; held_by: string | null }>('select online, held_by from exhibits where id = $1', [exhibitId]);
    return { online: rows[0]!.online, heldBy: rows[0]!.held_by };
  } finally {
    await client.end();
  }
}

describe('two nodes behind HAProxy', () => {
  it('keep an exhibit online through the other node when its node is killed, and the API answering', { timeout: 120_000 }, async () => {
    await plinth('user', 'create', '--email', ADMIN.email, '--password', ADMIN.password, '--platform-admin');
    const admin = new TestClient(url);
    expect((await admin.post('/auth/user/login', ADMIN)).status).toBe(200);
    const organization = (await admin.post('/org-management/organization', { name: 'Harbor Museum' })).body as { id: string };
    const site = (await admin.post('/org-management/site', { name: 'East Wing', organizationId: organization.id })).body as { id: string };
    const exhibit = (await admin.post('/exhibit-management/exhibit', { name: 'Tide Pool', siteId: site.id })).body as { id: string };
    const { token } = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body as { token: string };

    const sdk = new Exhibit({ serverUrl: url, exhibitId: exhibit.id, token, manifest: MANIFEST, reconnectMinMs: 100, reconnectMaxMs: 500 });
    open.push(sdk);
    await sdk.ready();
    const first = await waitUntil(async () => {
      const row = await heldBy(exhibit.id);
      return row.online && row.heldBy ? row.heldBy : null;
    }, 'the exhibit online through HAProxy');

    // `balance first`: the connection went to node 1. It dies without a word.
    const killedAt = Date.now();
    await nodes[0]!.kill('SIGKILL');
    const second = await waitUntil(async () => {
      const row = await heldBy(exhibit.id);
      return row.online && row.heldBy && row.heldBy !== first ? row.heldBy : null;
    }, 'the exhibit back through the other node', 15_000);
    expect(second).not.toBe(first);
    const backMs = Date.now() - killedAt;
    expect(backMs).toBeLessThan(15_000);
    console.log(`[fault 2] node killed behind HAProxy: the exhibit was online through the other node ${backMs} ms later`);
    // The API answers through HAProxy from the surviving node, with the same session.
    expect((await admin.get('/org-management/organization')).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });
});

/** Occurrences of one exhibit due every `everyMs` from `from`: each sets `level` to its index and fires its own control. */
function occurrencesAround(exhibitId: string, plan: { count: number; from: number; everyMs: number }): NewScheduledEvent[] {
  return Array.from({ length: plan.count }, (_, i) => ({
    exhibitId,
    name: `Due ${i}`,
    startDate: new Date(plan.from + i * plan.everyMs),
    endDate: null,
    recurring: false,
    changes: { settings: [{ settingId: 'level', value: i }], strapiContent: [], controls: [{ controlId: `c${i}` }], opMode: null },
  }));
}

describe('two nodes behind HAProxy, boards through its TCP frontend', () => {
  it('keeps boards online and their props flowing when a node dies, and runs each occurrence due around the kill once', { timeout: 180_000 }, async () => {
    // Node 1 again (on its port, as a service manager restarts it); test 1 left its exhibit on node 2.
    nodes[0] = await startServerProcess(envs[0]!);
    // HAProxy checks every 500 ms and takes a node back after one good check.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const admin = new TestClient(url);
    expect((await admin.post('/auth/user/login', ADMIN)).status).toBe(200);
    const organization = (await admin.post('/org-management/organization', { name: 'Quay Museum' })).body as { id: string };
    const site = (await admin.post('/org-management/site', { name: 'North Wing', organizationId: organization.id })).body as { id: string };
    const exhibit = (await admin.post('/exhibit-management/exhibit', { name: 'Harbour Clock', siteId: site.id })).body as { id: string };
    const { token } = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body as { token: string };

    const BOARDS = 5;
    const boardIds: string[] = [];
    for (let i = 0; i < BOARDS; i += 1) {
      const hardware = (await admin.post('/hardware-mgmt/hardware', { name: `Buoy ${i}`, siteId: site.id })).body as { id: string };
      const board = (await admin.post('/auth/hardware', { name: 'board', hardwareId: hardware.id })).body as { token: string };
      const sim = newBoard({ url: boardUrl, hardwareId: hardware.id, token: board.token, heartbeatMs: 500, reconnectMs: 200, reconnectMaxMs: 1000 });
      boards.push(sim);
      boardIds.push(hardware.id);
    }
    await Promise.all(boards.slice(-BOARDS).map((b) => b.start()));

    const OCCURRENCES = 10;
    const fired = new Map<string, number>();
    const sdk = new Exhibit({ serverUrl: url, exhibitId: exhibit.id, token, manifest: scheduleTestManifest(OCCURRENCES) as ManifestInput, reconnectMinMs: 100, reconnectMaxMs: 500 });
    sdk.on('control', ({ id }: { id: string }) => fired.set(id, (fired.get(id) ?? 0) + 1));
    open.push(sdk);
    await sdk.ready();
    // `balance first` sends it to node 1 once HAProxy has seen node 1 back (the other exhibit is on node 2).
    const other = (await query<{ held_by: string }>('select held_by from exhibits where held_by is not null and id <> $1', [exhibit.id]))[0]?.held_by;
    const row = await waitUntil(async () => {
      const now = await heldBy(exhibit.id);
      return now.online && now.heldBy ? now : undefined;
    }, 'the new exhibit online');
    expect(row.heldBy, 'HAProxy sent the exhibit to node 2: killing node 1 would test nothing').not.toBe(other);
    await waitUntil(async () => Number((await query<{ n: string }>('select count(*) as n from hardware where online and id = any($1)', [boardIds]))[0]!.n) === BOARDS, 'every board online through HAProxy');

    // Saves through HAProxy and QoS 1 prop changes through its TCP frontend, all through the fault.
    const load = startSteadyLoad({ settings: { writer: admin, exhibitIds: [exhibit.id], settingId: 'kiosk_name' }, boards: boards.slice(-BOARDS) });
    await load.running();
    // Occurrences due from 1 s before the kill to 1.7 s after it.
    const direct = await openDatabase({ databaseUrl: database.url, dataDir: dirs[0]!, holder: 'test' });
    try {
      const killAt = Date.now() + 2000;
      await insertScheduledEvents(direct.db, occurrencesAround(exhibit.id, { count: OCCURRENCES, from: killAt - 1000, everyMs: 300 }));
      await new Promise((resolve) => setTimeout(resolve, killAt - Date.now()));
      await nodes[0]!.kill('SIGKILL');
      const killedAt = Date.now();

      // Boards talk to the broker, not the node: they never read offline, and what they send still lands.
      const offlineSeen: number[] = [];
      const before = { settings: new Map(load.settings), props: new Map(load.props) };
      await waitUntil(
        async () => {
          offlineSeen.push(Number((await query<{ n: string }>('select count(*) as n from hardware where not online and id = any($1)', [boardIds]))[0]!.n));
          return [...load.settings].every(([id, n]) => n > before.settings.get(id)!) && [...load.props].every(([id, n]) => n > before.props.get(id)!);
        },
        'saves and prop changes acknowledged after the kill',
        15_000,
      );

      const rows = await waitUntil(async () => {
        const now = await listEventsOfExhibits(direct.db, [exhibit.id]);
        return now.every((r) => r.state === 'completed' || r.state === 'failed') ? now : undefined;
      }, 'every occurrence finished', 60_000);
      const finishedMs = Date.now() - killedAt;
      expect(rows).toHaveLength(OCCURRENCES);
      for (const row of rows) {
        expect(stepsDoneTwice(row.steps), row.name).toEqual([]);
        expect(stepsDone(row.steps), row.name).toEqual([0, 1]);
        const outcomes = row.steps.filter((step) => step.phase === 'done').map((step) => step.outcome ?? '');
        // Failed only where nothing could be made: the exhibit between nodes when its time came.
        if (row.state === 'failed') expect(outcomes.every((o) => o.includes('failed')), `${row.name}: ${outcomes.join('; ')}`).toBe(true);
      }
      await load.stop();
      await load.expectNothingLost(query);
      // No control reached the exhibit twice.
      expect([...fired.values()].every((n) => n === 1), JSON.stringify([...fired])).toBe(true);
      for (let n = 0; n < 6; n += 1) {
        offlineSeen.push(Number((await query<{ n: string }>('select count(*) as n from hardware where not online and id = any($1)', [boardIds]))[0]!.n));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(offlineSeen.every((n) => n === 0), `boards read offline: ${offlineSeen.join(',')}`).toBe(true);
      const completed = rows.filter((r) => r.state === 'completed').length;
      console.log(
        `[fault 2b] node killed behind HAProxy with ${BOARDS} boards through its TCP frontend: none read offline; ${load.settings.size} writer and ${load.props.size} boards under load, none of their last acknowledged writes lost (${load.answers.get(0) ?? 0} saves cut by the kill); ` +
          `${OCCURRENCES} occurrences due around the kill: ${completed} completed, ${OCCURRENCES - completed} failed (exhibit between nodes), none twice, ${fired.size} controls received once each; all finished ${finishedMs} ms after the kill`,
      );
    } finally {
      await direct.close();
    }
  });
});

/** What the server stored (its database, read in a connection of the test's own). */
const query = <T>(sql: string, values?: unknown[]) => queryRows(database.url)<T>(sql, values);
