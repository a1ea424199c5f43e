// Backup benchmark (issue 20): on each database (the embedded PGlite and PostgreSQL), a venue's
// data with ROWS log lines (the bulk of any real database) plus its devices, then
//   1. `writeBackup` while a probe queries the database every 5 ms, as the server's own work does:
//      the backup's time and rate, the archive's size, and the longest the probe waited (PGlite
//      has one connection, so the snapshot holds the server's queries);
//   2. `restoreBackup` of that archive into a fresh database: time and rate.
//   npm run bench -- backup --rows 200000 --database pglite
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { createLocalFileStore } from '../apps/server/src/lib/file-store.js';
import { restoreBackup, writeBackup } from '../apps/server/src/modules/backup/backup.service.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../apps/server/src/test/postgres.js';
import { readFlags, wholeNumber } from './lib/options.js';
import type { BenchDatabase } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

type Figure = { label: string; value: string };

const log = (line: string) => console.log(`[backup] ${line}`);

async function open(kind: BenchDatabase, scratch: string, name: string): Promise<{ database: Database; dataDir: string; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(scratch, `${name}-`));
  if (kind === 'pglite') return { database: await openDatabase({ dataDir, holder: 'bench' }), dataDir, drop: async () => undefined };
  await ensurePostgres();
  const db = uniqueDatabaseName('plinth_bench_backup');
  await adminQuery(`create database ${db}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(db), dataDir, holder: 'bench' });
  return { database, dataDir, drop: () => adminQuery(`drop database if exists ${db} with (force)`) };
}

/** An organization, a site, 200 exhibits and 200 boards, and `rows` log lines over the last 7 days. */
async function fill(database: Database, rows: number): Promise<void> {
  const db = database.db;
  await db.execute(sql`insert into organizations (name) values ('Bench Museum')`);
  await db.execute(sql`insert into sites (name, organization_id) select 'Main', id from organizations`);
  await db.execute(sql`insert into exhibits (name, site_id) select 'Exhibit ' || n, (select id from sites) from generate_series(1, 200) n`);
  await db.execute(sql`insert into hardware (name, site_id) select 'Board ' || n, (select id from sites) from generate_series(1, 200) n`);
  for (let day = 0; day < 7; day += 1) await db.execute(sql`select plinth_day_partition('log_entries', (now() at time zone 'UTC')::date - ${day}::int)`);
  for (let done = 0; done < rows; done += 50_000) {
    const n = Math.min(50_000, rows - done);
    await db.execute(sql`
      insert into log_entries (source, device_id, at, level, event_type, message)
      select 'exhibit', (select id from exhibits order by id limit 1), now() - (random() * interval '6 days'), 'info', 'info',
        '{"visitor":' || g || ',"scene":"intro","ms":' || (g % 997) || '}'
      from generate_series(1, ${n}) g`);
  }
}

/** Queries `select 1` every 5 ms until stopped: the longest and the p99 wait, in ms. */
function startProbe(database: Database): { stop: () => Promise<{ max: number; p99: number }> } {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await database.db.execute(sql`select 1`);
      waits.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = [...waits].sort((a, b) => a - b);
      return { max: sorted.at(-1) ?? 0, p99: quantile(sorted, 0.99) };
    },
  };
}

async function runOne(kind: BenchDatabase, rows: number, scratch: string): Promise<Figure[]> {
  const source = await open(kind, scratch, 'source');
  const target = await open(kind, scratch, 'target');
  try {
    await source.database.migrate();
    await target.database.migrate();
    log(`${kind}: filling ${rows} log lines`);
    await fill(source.database, rows);
    const archive = path.join(scratch, `${kind}.tar.gz`);
    const probe = startProbe(source.database);
    const started = performance.now();
    const summary = await writeBackup({ db: source.database.db, kind: source.database.kind, files: createLocalFileStore(path.join(source.dataDir, 'store')), config: { dataDir: source.dataDir, secretKey: undefined } }, archive);
    const backupS = (performance.now() - started) / 1000;
    const waited = await probe.stop();
    const restoreStarted = performance.now();
    await restoreBackup({ db: target.database.db, kind: target.database.kind, files: createLocalFileStore(path.join(target.dataDir, 'store')), config: { dataDir: target.dataDir, secretKey: undefined } }, { file: archive, force: false });
    const restoreS = (performance.now() - restoreStarted) / 1000;
    const mb = fs.statSync(archive).size / 1e6;
    return [
      { label: `${kind}: backup of ${summary.rows} rows`, value: `${backupS.toFixed(1)} s (${Math.round(summary.rows / backupS)} rows/s), archive ${mb.toFixed(1)} MB` },
      { label: `${kind}: a query during the backup waited`, value: `max ${waited.max.toFixed(0)} ms, p99 ${waited.p99.toFixed(0)} ms` },
      { label: `${kind}: restore into a fresh database`, value: `${restoreS.toFixed(1)} s (${Math.round(summary.rows / restoreS)} rows/s)` },
    ];
  } finally {
    await source.database.close();
    await target.database.close();
    await source.drop();
    await target.drop();
  }
}

async function main() {
  const values = readFlags({ rows: { type: 'string' }, database: { type: 'string' } });
  const rows = wholeNumber(values.rows, process.env.BENCH_ROWS, 200_000, 'rows');
  const database = String(values.database ?? process.env.BENCH_DATABASE ?? 'both');
  if (!['postgres', 'pglite', 'both'].includes(database)) throw new Error(`--database must be postgres, pglite or both (got ${database})`);
  const kinds: BenchDatabase[] = database === 'both' ? ['pglite', 'postgres'] : [database as BenchDatabase];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-backup-'));
  const figures: Figure[] = [];
  try {
    for (const kind of kinds) figures.push(...(await runOne(kind, rows, scratch)));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log('\nBackup and restore');
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) console.log(`  ${f.label.padEnd(width)}  ${f.value}`);
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'backup', options: { rows, database }, figures }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[backup] failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
