// Audit log benchmark (issue 20), on each database (the embedded PGlite and PostgreSQL):
//   1. appends: APPENDS entries to one organization's chain from WRITERS concurrent writers (on
//      PostgreSQL through two connection pools, as two server nodes would), each append its own
//      transaction with the chain head locked: appends a second, then `verifyAuditChains` over them;
//   2. reading: ENTRIES entries in another organization (filled by SQL, spread over 20 exhibits and
//      50 people), then the first page (50, newest first) unfiltered and filtered by exhibit, person
//      and action, and the page after 10 pages of cursor: the median of 20 reads each.
//   npm run bench -- audit --appends 2000 --writers 8 --entries 100000 --database postgres
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { createAuditLog } from '../apps/server/src/modules/audit/audit.service.js';
import { listAuditRows } from '../apps/server/src/modules/audit/audit.repository.js';
import { verifyAuditChains } from '../apps/server/src/modules/audit/audit-verify.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../apps/server/src/test/postgres.js';
import { readFlags, wholeNumber } from './lib/options.js';
import type { BenchDatabase } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

type Figure = { label: string; value: string };

const log = (line: string) => console.log(`[audit] ${line}`);

/** The database, and on PostgreSQL a second pool on it (a second node). */
async function open(kind: BenchDatabase, scratch: string): Promise<{ nodes: Database[]; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(scratch, `${kind}-`));
  if (kind === 'pglite') return { nodes: [await openDatabase({ dataDir, holder: 'bench' })], drop: async () => undefined };
  await ensurePostgres();
  const name = uniqueDatabaseName('plinth_bench_audit');
  await adminQuery(`create database ${name}`);
  const first = await openDatabase({ databaseUrl: databaseUrl(name), dataDir, holder: 'bench' });
  await first.migrate();
  const second = await openDatabase({ databaseUrl: databaseUrl(name), dataDir, holder: 'bench' });
  return { nodes: [first, second], drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

const CONTEXT = { actor: { kind: 'user' as const, id: 'bench', label: 'bench@example.com' }, address: '192.0.2.1' };

async function appendFigures(kind: BenchDatabase, nodes: Database[], options: { appends: number; writers: number }): Promise<Figure[]> {
  const organizationId = randomUUID();
  const logs = nodes.map((node) => createAuditLog({ db: node.db, clock: systemClock }));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      const audit = logs[writer % logs.length]!;
      while (next < options.appends) {
        const i = next++;
        await audit.record(CONTEXT, { organizationId, resource: 'exhibitSetting', resourceId: `s${i}`, action: 'update', before: { value: i - 1 }, after: { value: i } });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const verifyStarted = performance.now();
  const report = (await verifyAuditChains(nodes[0]!.db)).find((r) => r.organizationId === organizationId);
  const verifyS = (performance.now() - verifyStarted) / 1000;
  if (report?.problem || report?.entries !== options.appends) throw new Error(`the chain does not hold: ${JSON.stringify(report)}`);
  return [
    { label: `${kind}: ${options.appends} appends, ${options.writers} writers on ${nodes.length} node(s)`, value: `${(options.appends / seconds).toFixed(0)} appends/s (${seconds.toFixed(1)} s)` },
    { label: `${kind}: verify (all chains)`, value: `${verifyS.toFixed(2)} s, chain whole` },
  ];
}

/** `entries` entries of one organization over the last 30 days, 20 exhibits and 50 people, by SQL (their hashes are not a chain). */
async function fill(database: Database, organizationId: string, entries: number): Promise<string[]> {
  const exhibits = Array.from({ length: 20 }, () => randomUUID());
  for (let done = 0; done < entries; done += 50_000) {
    const n = Math.min(50_000, entries - done);
    await database.db.execute(sql`
      insert into audit_entries (organization_id, sequence, at, actor_kind, actor_id, actor_label, address, exhibit_id, resource, resource_id, action, after_json, prev_hash, hash)
      select ${organizationId}::uuid, ${done}::int + g, now() - ((${entries}::int - ${done}::int - g) * interval '25 seconds'), 'user', 'u' || (g % 50),
        'person' || (g % 50) || '@example.com', '192.0.2.1', (${`{${exhibits.join(',')}}`}::uuid[])[1 + g % 20], 'exhibitSetting', 's' || g,
        case when g % 10 = 0 then 'lock' else 'update' end, '{"value":' || g || '}', '', ''
      from generate_series(1, ${n}::int) g`);
  }
  await database.db.execute(sql`analyze audit_entries`);
  return exhibits;
}

async function median(read: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return quantile([...times].sort((a, b) => a - b), 0.5);
}

async function readFigures(kind: BenchDatabase, database: Database, entries: number): Promise<Figure[]> {
  const organizationId = randomUUID();
  log(`${kind}: filling ${entries} entries`);
  const exhibits = await fill(database, organizationId, entries);
  const db = database.db;
  const page = { limit: 51 };
  const cases: [string, () => Promise<unknown>][] = [
    ['first page, no filter', () => listAuditRows(db, { organizationId }, page)],
    ['first page, one exhibit', () => listAuditRows(db, { organizationId, exhibitId: exhibits[3] }, page)],
    ['first page, one person', () => listAuditRows(db, { organizationId, actor: 'person7@' }, page)],
    ['first page, action lock, last 7 days', () => listAuditRows(db, { organizationId, action: 'lock', from: Date.now() - 7 * 86_400_000 }, page)],
    ['page 11, no filter (cursor)', () => listAuditRows(db, { organizationId }, { before: entries - 500, limit: 51 })],
  ];
  const figures: Figure[] = [];
  for (const [label, read] of cases) figures.push({ label: `${kind}: ${entries} entries, ${label}`, value: `${(await median(read)).toFixed(1)} ms (median of 20)` });
  return figures;
}

async function runOne(kind: BenchDatabase, options: { appends: number; writers: number; entries: number }, scratch: string): Promise<Figure[]> {
  const { nodes, drop } = await open(kind, scratch);
  try {
    await nodes[0]!.migrate();
    return [...(await appendFigures(kind, nodes, options)), ...(await readFigures(kind, nodes[0]!, options.entries))];
  } finally {
    for (const node of nodes) await node.close();
    await drop();
  }
}

async function main() {
  const values = readFlags({ appends: { type: 'string' }, writers: { type: 'string' }, entries: { type: 'string' }, database: { type: 'string' } });
  const options = {
    appends: wholeNumber(values.appends, process.env.BENCH_APPENDS, 2000, 'appends'),
    writers: wholeNumber(values.writers, process.env.BENCH_WRITERS, 8, 'writers'),
    entries: wholeNumber(values.entries, process.env.BENCH_ENTRIES, 100_000, 'entries'),
  };
  const database = String(values.database ?? process.env.BENCH_DATABASE ?? 'both');
  if (!['postgres', 'pglite', 'both'].includes(database)) throw new Error(`--database must be postgres, pglite or both (got ${database})`);
  const kinds: BenchDatabase[] = database === 'both' ? ['pglite', 'postgres'] : [database as BenchDatabase];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-audit-'));
  const figures: Figure[] = [];
  try {
    for (const kind of kinds) figures.push(...(await runOne(kind, options, scratch)));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log('\nAudit log');
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) console.log(`  ${f.label.padEnd(width)}  ${f.value}`);
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'audit', options: { ...options, database }, figures }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[audit] failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
