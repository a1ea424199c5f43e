import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import { runCli } from './cli.js';
import { freePort } from './test/free-port.js';
import { waitUntil } from './test/hardware-kit.js';
import { startMosquitto, type RunningMosquitto } from './test/mosquitto.js';
import { startServerProcess, type ServerProcess } from './test/server-process.js';
import { createTestDatabase } from './test/test-server.js';
import { TestClient } from './test/test-client.js';

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
function haproxyConfig(input: { port: number; nodes: number[]; balance?: string }): string {
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
const open: Exhibit[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  mosquitto = await startMosquitto();
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-node-'));
    dirs.push(dataDir);
    nodes.push(
      await startServerProcess({
        DATABASE_URL: database.url,
        REDIS_URL,
        MQTT_URL: mosquitto.serverUrl,
        DATA_DIR: dataDir,
        PORT: String(port),
        NODE_HEARTBEAT_MS: '500',
        NODE_LOST_AFTER_MS: '3000',
        SHUTDOWN_DRAIN_MS: '0',
      }),
    );
  }
  const port = await freePort();
  const configFile = path.join(dirs[0]!, 'haproxy.cfg');
  fs.writeFileSync(configFile, haproxyConfig({ port, nodes: ports, balance: 'first' }));
  haproxy = spawn(fs.existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy', ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  haproxy.stdout!.on('data', (d: Buffer) => (haproxyOutput += d.toString()));
  haproxy.stderr!.on('data', (d: Buffer) => (haproxyOutput += d.toString()));
  url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, `HAProxy in front of the nodes: ${haproxyOutput}`, 20_000);
}, 180_000);

afterAll(async () => {
  for (const exhibit of open) exhibit.close();
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
