// Gumband compatibility benchmark (issue 16), on each database (the embedded PGlite and PostgreSQL):
// EXHIBITS exhibits speaking Gumband's protocol to the built server in compatibility mode
// (GUMBAND_COMPAT=1), as the published SDK does: each signs in on the auth port (the
// `exhibitToken` cookie), opens the socket on the ws port, HANDSHAKE then SUBSCRIBE, and waits for
// EXHIBIT_ONLINE. Then op-mode changes made through Plinth's API, each timed from the API call to
// OP_MODE_RECEIVED on the exhibit's socket (the same gateway as native SDK exhibits, through the
// Gumband socket translation): ROUNDS × 40 one at a time, then one to every exhibit at once.
//   npm run bench -- gumband --exhibits 200 --rounds 5 --database postgres
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { GUMBAND_PORT_OFFSETS } from '../apps/server/src/compat/gumband/gumband-ports.js';
import { freeGumbandBasePort } from '../apps/server/src/test/gumband-kit.js';
import { createApiClient } from './lib/api-client.js';
import { isFromSource, readFlags, wholeNumber, readDatabases } from './lib/options.js';
import { checkServerBuild, startBenchServer, type BenchDatabase } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

type Figure = { label: string; value: string };

const log = (line: string) => console.log(`[gumband] ${line}`);

type GumbandSocket = { ws: WebSocket; opModes: { mode: boolean; at: number }[] };

/** Signs the exhibit in (the cookie) and opens its Gumband socket, answering once EXHIBIT_ONLINE arrived. */
async function connect(base: number, exhibit: { id: string; token: string }): Promise<GumbandSocket> {
  const res = await fetch(`http://127.0.0.1:${base + GUMBAND_PORT_OFFSETS.auth}/api/v1/auth/exhibit/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exhibitId: exhibit.id, token: exhibit.token }),
  });
  const cookie = /exhibitToken=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!res.ok || !cookie) throw new Error(`authenticate answered ${res.status}`);
  const ws = new WebSocket(`ws://127.0.0.1:${base + GUMBAND_PORT_OFFSETS.ws}/api/v1/ws`);
  const socket: GumbandSocket = { ws, opModes: [] };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`exhibit ${exhibit.id} not online within 30 s`)), 30_000);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ action: 'HANDSHAKE', data: { jwt: decodeURIComponent(cookie) } })));
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { action: string; data?: { mode?: boolean } };
      if (frame.action === 'HANDSHAKE_SUCCESSFUL') ws.send(JSON.stringify({ action: 'SUBSCRIBE', data: { exhibitId: exhibit.id } }));
      if (frame.action === 'EXHIBIT_ONLINE') {
        clearTimeout(timer);
        resolve(socket);
      }
      if (frame.action === 'OP_MODE_RECEIVED') socket.opModes.push({ mode: frame.data?.mode === true, at: performance.now() });
    });
  });
}

async function runOne(database: BenchDatabase, options: { exhibits: number; rounds: number; fromSource: boolean }): Promise<Figure[]> {
  const base = await freeGumbandBasePort();
  process.env.GUMBAND_COMPAT = '1';
  process.env.GUMBAND_COMPAT_BASE_PORT = String(base);
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  const sockets: GumbandSocket[] = [];
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: `Gumband ${Date.now()}` });
    const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Hall', organizationId: organization.id });
    const exhibits: { id: string; token: string }[] = [];
    for (let i = 0; i < options.exhibits; i += 1) {
      const { id } = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: `Gumband exhibit ${i}`, siteId: site.id });
      exhibits.push({ id, token: (await api<{ token: string }>('POST', '/auth/exhibit', { name: 'gumband', exhibitId: id })).token });
    }
    log(`${database}: ${options.exhibits} exhibits connecting`);
    const connectStarted = performance.now();
    for (let i = 0; i < exhibits.length; i += 50) sockets.push(...(await Promise.all(exhibits.slice(i, i + 50).map((e) => connect(base, e)))));
    const connectS = (performance.now() - connectStarted) / 1000;

    /** One op-mode change through the API, timed to its OP_MODE_RECEIVED on the exhibit's socket. */
    const change = async (i: number, mode: 'On' | 'Off'): Promise<number> => {
      const socket = sockets[i]!;
      const seen = socket.opModes.length;
      const sent = performance.now();
      await api('POST', `/exhibit-management/exhibit/${exhibits[i]!.id}/opMode`, { opMode: mode });
      const deadline = Date.now() + 10_000;
      while (socket.opModes.length === seen && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      const got = socket.opModes[seen];
      if (!got || got.mode !== (mode === 'On')) throw new Error(`exhibit ${exhibits[i]!.id} did not receive op mode ${mode}`);
      return got.at - sent;
    };
    // One change at a time (the path's own latency), then every exhibit at once (a burst).
    const single: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      for (let i = 0; i < Math.min(40, exhibits.length); i += 1) single.push(await change(i, round % 2 === 0 ? 'On' : 'Off'));
    }
    single.sort((a, b) => a - b);
    const burstStarted = performance.now();
    await Promise.all(exhibits.map((_, i) => change(i, options.rounds % 2 === 0 ? 'On' : 'Off')));
    const burstMs = performance.now() - burstStarted;
    const memory = await server.memory();
    return [
      { label: `${database}: ${options.exhibits} Gumband exhibits signed in and online`, value: `${connectS.toFixed(1)} s (${(options.exhibits / connectS).toFixed(0)} a second, 50 at a time)` },
      {
        label: `${database}: op mode through the API → OP_MODE_RECEIVED, one at a time (${single.length})`,
        value: `p50 ${quantile(single, 0.5).toFixed(1)} ms, p99 ${quantile(single, 0.99).toFixed(1)} ms, max ${single.at(-1)!.toFixed(1)} ms`,
      },
      { label: `${database}: op mode to all ${options.exhibits} at once`, value: `every exhibit had it ${burstMs.toFixed(0)} ms after the first call` },
      { label: `${database}: server heap after a forced collection`, value: `${(memory.heapUsed / 1024 / 1024).toFixed(1)} MiB` },
    ];
  } finally {
    for (const socket of sockets) socket.ws.close();
    await server.stop();
  }
}

async function main() {
  const values = readFlags({ exhibits: { type: 'string' }, rounds: { type: 'string' }, database: { type: 'string' } });
  const options = {
    exhibits: wholeNumber(values.exhibits, process.env.BENCH_EXHIBITS, 200, 'exhibits'),
    rounds: wholeNumber(values.rounds, process.env.BENCH_ROUNDS, 5, 'rounds'),
    fromSource: isFromSource(values),
  };
  const kinds = readDatabases(values.database);
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const figures: Figure[] = [];
  for (const kind of kinds) figures.push(...(await runOne(kind, options)));
  console.log('\nGumband compatibility');
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) console.log(`  ${f.label.padEnd(width)}  ${f.value}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[gumband] failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
