// API keys benchmark (issue 20), on each database (the embedded PGlite and PostgreSQL): the cost
// of a REST call made with an API key against the same call made with a session cookie.
//   1. a session: CLIENTS concurrent clients read an exhibit (GET) for SECONDS: calls a second, p50 / p99;
//   2. keys: the same with a key each (`Authorization: Bearer`): every call checks the key in the
//      database (revocation holds at once on every node), counts it in the key's throttle window and
//      appends a `call` entry to the organization's audit chain, after the answer;
//   3. revocation: a key revoked, then the time until a call with it is refused (one call later).
//   npm run bench -- api-keys --clients 16 --seconds 10 --database postgres
import { performance } from 'node:perf_hooks';
import { createApiClient } from './lib/api-client.js';
import { isFromSource, readFlags, wholeNumber, readDatabases } from './lib/options.js';
import { checkServerBuild, startBenchServer, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

type Figure = { label: string; value: string };

const log = (line: string) => console.log(`[api-keys] ${line}`);

type Run = { calls: number; failed: number; seconds: number; latencies: number[] };

/** `clients` loops calling GET on an exhibit with their own headers for `seconds`. */
async function drive(server: BenchServer, headers: Record<string, string>[], exhibitIds: string[], seconds: number): Promise<Run> {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    headers.map(async (header, client) => {
      for (let i = 0; performance.now() < until; i += 1) {
        const exhibitId = exhibitIds[(client + i) % exhibitIds.length]!;
        const sent = performance.now();
        const res = await fetch(`${server.url}/api/v1/exhibit-management/exhibit/${exhibitId}`, { headers: header });
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (!res.ok) failed += 1;
      }
    }),
  );
  return { calls: latencies.length, failed, seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

const describeRun = (run: Run) =>
  `${(run.calls / run.seconds).toFixed(0)} calls/s, p50 ${quantile(run.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(run.latencies, 0.99).toFixed(1)} ms` +
  (run.failed ? `, ${run.failed} failed` : '');

async function runOne(database: BenchDatabase, options: { clients: number; seconds: number; fromSource: boolean }): Promise<Figure[]> {
  // A budget no client reaches: the throttle is counted, never hit.
  process.env.API_KEY_RATE_LIMIT = '1000000';
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: `Keys ${Date.now()}` });
    const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Hall', organizationId: organization.id });
    const exhibitIds: string[] = [];
    for (let i = 0; i < 20; i += 1) exhibitIds.push((await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: `Exhibit ${i}`, siteId: site.id })).id);
    const keys: { id: string; key: string }[] = [];
    for (let i = 0; i < options.clients; i += 1) {
      keys.push(await api<{ id: string; key: string }>('POST', `/org-management/organization/${organization.id}/api-keys`, { name: `Client ${i}`, role: 'developer' }));
    }
    // A short warm-up of both paths, then the measured runs.
    await drive(server, [{ cookie: server.adminCookie }], exhibitIds, 1);
    await drive(server, [{ authorization: `Bearer ${keys[0]!.key}` }], exhibitIds, 1);
    log(`${database}: ${options.clients} clients with a session for ${options.seconds} s`);
    const session = await drive(server, Array.from({ length: options.clients }, () => ({ cookie: server.adminCookie })), exhibitIds, options.seconds);
    log(`${database}: ${options.clients} clients with a key each for ${options.seconds} s`);
    const keyed = await drive(server, keys.map((k) => ({ authorization: `Bearer ${k.key}` })), exhibitIds, options.seconds);

    // Revocation: the next call with the key after the revoke's answer is refused.
    const revoked = keys[0]!;
    const revokeStarted = performance.now();
    await api('DELETE', `/org-management/api-keys/${revoked.id}`);
    const revokedAnswer = performance.now();
    const after = await fetch(`${server.url}/api/v1/exhibit-management/exhibit/${exhibitIds[0]}`, { headers: { authorization: `Bearer ${revoked.key}` } });
    const refusedMs = performance.now() - revokeStarted;
    if (after.status !== 401) throw new Error(`a revoked key answered ${after.status}`);
    return [
      { label: `${database}: GET an exhibit, ${options.clients} clients with a session`, value: describeRun(session) },
      { label: `${database}: GET an exhibit, ${options.clients} clients with an API key each`, value: describeRun(keyed) },
      { label: `${database}: key calls against session calls`, value: `${((keyed.calls / keyed.seconds / (session.calls / session.seconds)) * 100).toFixed(0)} % of the calls a second` },
      { label: `${database}: revoked key refused`, value: `the first call after the revoke (${(revokedAnswer - revokeStarted).toFixed(1)} ms to revoke, ${refusedMs.toFixed(1)} ms to the 401)` },
    ];
  } finally {
    await server.stop();
  }
}

async function main() {
  const values = readFlags({ clients: { type: 'string' }, seconds: { type: 'string' }, database: { type: 'string' } });
  const options = {
    clients: wholeNumber(values.clients, process.env.BENCH_CLIENTS, 16, 'clients'),
    seconds: wholeNumber(values.seconds, process.env.BENCH_SECONDS, 10, 'seconds'),
    fromSource: isFromSource(values),
  };
  const kinds = readDatabases(values.database);
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const figures: Figure[] = [];
  for (const kind of kinds) figures.push(...(await runOne(kind, options)));
  console.log('\nAPI keys');
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) console.log(`  ${f.label.padEnd(width)}  ${f.value}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[api-keys] failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
