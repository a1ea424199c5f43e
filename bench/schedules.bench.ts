// Scheduling benchmark (issue 11): 10,000 occurrences due in the same minute across 1,000 exhibits,
//   - on PostgreSQL, run by two server instances sharing the database (and Redis for the realtime
//     hub, as multi-node deployments do);
//   - on the embedded PGlite default, run by the one instance PGlite allows.
// Each occurrence changes the IntegerInput setting `level` of its exhibit (value = its index); the
// exhibits are offline, so the value is stored as desired state. Prints, per database: lateness
// p50 / p99 / max (ran_at − start_date), occurrences run twice (a step with two 'done' records, or a
// setting whose version rose by more than the occurrences targeting it), missed and failed ones,
// and the time from the first start to the last run. Run through `npm run bench` (see
// docs/performance.md); the servers run from the sources through tsx, no build needed:
//   npm run bench -- schedules --occurrences 2000 --exhibits 200 --database postgres --spread 60
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '@plinth/shared';
import { newSecretKeyText } from '../apps/server/src/lib/secret-box.js';
import pg from 'pg';
import { ADMIN_URL, adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../apps/server/src/test/postgres.js';
import { createApiClient } from './lib/api-client.js';
import { positiveNumber, readFlags, wholeNumber, readDatabases } from './lib/options.js';
import { ROOT, type BenchDatabase } from './lib/plinth-server.js';
import { startCpuWindow } from './lib/proc-stats.js';
import type { Counts, FromNode, OccurrenceResult, Prepare, ToNode } from './lib/schedule-node.js';
import { mapLimit, quantile } from './lib/stats.js';

type Options = {
  occurrences: number;
  exhibits: number;
  /** Server instances on PostgreSQL (PGlite always runs one). */
  nodes: number;
  databases: BenchDatabase[];
  /** Seconds between the end of the setup and the first start. */
  leadS: number;
  /** Seconds over which the starts are spread evenly; 0 = all at the same instant. */
  spreadS: number;
  timeoutS: number;
};

function readOptions(): Options {
  const values = readFlags({
    occurrences: { type: 'string' },
    exhibits: { type: 'string' },
    nodes: { type: 'string' },
    database: { type: 'string' },
    lead: { type: 'string' },
    spread: { type: 'string' },
    timeout: { type: 'string' },
  });
  const env = process.env;
  const spread = String(values.spread ?? env.BENCH_SPREAD ?? '0');
  const spreadS = Number(spread);
  if (!Number.isFinite(spreadS) || spreadS < 0) throw new Error(`--spread must be 0 or a positive number of seconds (got ${spread})`);
  return {
    occurrences: wholeNumber(values.occurrences, env.BENCH_OCCURRENCES, 10_000, 'occurrences'),
    exhibits: wholeNumber(values.exhibits, env.BENCH_EXHIBITS, 1000, 'exhibits'),
    nodes: wholeNumber(values.nodes, env.BENCH_NODES, 2, 'nodes'),
    databases: readDatabases(values.database),
    leadS: positiveNumber(values.lead, env.BENCH_LEAD, 20, 'lead'),
    spreadS,
    timeoutS: positiveNumber(values.timeout, env.BENCH_TIMEOUT, 900, 'timeout'),
  };
}

const log = (line: string) => console.log(`[schedules] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** A lateness, to the hundredth of a second (spread starts run well under a second late). */
const late = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type Figure = { label: string; value: string; target?: string; ok?: boolean };

/** What to undo when the run is interrupted (server processes, the database, data directories). */
const cleanups = new Set<() => Promise<void> | void>();
async function cleanUp(): Promise<void> {
  for (const undo of [...cleanups].reverse()) await Promise.resolve(undo()).catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** A message to a node without its id (the id pairs it with the answer). */
type Request = ToNode extends infer M ? (M extends ToNode ? Omit<M, 'id'> : never) : never;

/** A server instance in its own process (bench/lib/schedule-node.ts), asked over IPC. */
type Node = {
  child: ChildProcess;
  url: string;
  name: string;
  ask: <T>(message: Request) => Promise<T>;
  stop: () => Promise<void>;
};

async function startNode(env: NodeJS.ProcessEnv): Promise<Node> {
  const child = fork(path.join(ROOT, 'bench/lib/schedule-node.ts'), [], { cwd: ROOT, env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<{ url: string; node: string }>((resolve, reject) => {
    child.on('message', (message: FromNode) => {
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'failed') reject(new Error(`a server instance failed to start: ${message.message}`));
      else {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.type === 'answer') pending?.resolve(message.value);
        else pending?.reject(new Error(message.message));
      }
    });
    child.once('exit', (code) => {
      const error = new Error(`a server instance exited (${code})`);
      reject(error);
      for (const pending of waiting.values()) pending.reject(error);
    });
  });
  const { url, node } = await ready;
  const ask = <T,>(message: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...message, id } as ToNode);
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await ask({ type: 'close' }).catch(() => child.kill('SIGTERM'));
    await exited;
    clearTimeout(timer);
  };
  return { child, url, name: node, ask, stop };
}

/** The deployment: a fresh database, and the instances sharing it (the first migrates it alone). */
async function startDeployment(database: BenchDatabase, options: Options): Promise<{ nodes: Node[]; databaseName: string | null }> {
  let url = '';
  if (database === 'postgres') {
    await ensurePostgres();
    const name = uniqueDatabaseName('plinth_bench');
    await adminQuery(`create database ${name}`);
    url = databaseUrl(name);
    cleanups.add(() => adminQuery(`drop database if exists ${name} with (force)`));
  }
  const secretKey = newSecretKeyText();
  const count = database === 'postgres' ? options.nodes : 1;
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-schedules-'));
    cleanups.add(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const node = await startNode({
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-console'),
      MQTT_URL: '',
      // Several instances publish realtime events to each other through Redis.
      REDIS_URL: count > 1 ? (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
      SMTP_URL: '',
      // One key for the deployment, so instances read each other's stored secrets.
      SECRET_KEY: secretKey,
    });
    cleanups.add(node.stop);
    nodes.push(node);
  }
  log(`${database}: ${count} server instance(s) (${nodes.map((n) => `pid ${n.child.pid} on ${n.url}`).join(', ')}), ${database === 'postgres' ? `database ${new URL(url).pathname.slice(1)}${count > 1 ? ', Redis hub' : ''}` : 'embedded PGlite'}`);
  return { nodes, databaseName: url ? new URL(url).pathname.slice(1) : null };
}

/** PostgreSQL backends serving the database (their CPU is the instances' database work); none on PGlite. */
async function backendPids(databaseName: string | null): Promise<number[]> {
  if (!databaseName) return [];
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [databaseName]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Passw0rd!' };

/** The organization, site and exhibits through the REST API, as the other benchmarks make them. */
async function createExhibits(node: Node, count: number): Promise<string[]> {
  await node.ask({ type: 'createAdmin', ...ADMIN });
  const res = await fetch(`${node.url}/api/v1/auth/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!res.ok || !cookie) throw new Error(`signing the admin in failed (${res.status})`);
  const api = createApiClient(node.url, cookie);
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Benchmark museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Benchmark hall', organizationId: organization.id });
  const width = String(count).length;
  return mapLimit(Array.from({ length: count }, (_, i) => i), 8, async (index) => {
    const exhibit = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: `Exhibit ${String(index + 1).padStart(width, '0')}`, siteId: site.id });
    return exhibit.id;
  });
}

/** Waits until no occurrence is waiting or running, logging claimed / completed every 5 s. */
async function waitForRuns(nodes: Node[], exhibitIds: string[], options: Options & { startAtMs: number }): Promise<void> {
  const node = nodes[0]!;
  const deadline = options.startAtMs + options.timeoutS * 1000;
  let lastLine = 0;
  for (;;) {
    await sleep(1000);
    const counts = await node.ask<Counts>({ type: 'counts', exhibitIds });
    const n = (state: string) => counts.states[state] ?? 0;
    const open = n('scheduled') + n('running');
    if (Date.now() - lastLine >= 5000) {
      lastLine = Date.now();
      const claimed = options.occurrences - n('scheduled');
      const perNode = nodes.length > 1 ? ` (${nodes.map((other, i) => `node ${i + 1}: ${counts.runningByNode[other.name] ?? 0}`).join(', ')})` : '';
      log(`claimed ${claimed}, completed ${n('completed')}, running ${n('running')}${perNode}, missed ${n('missed')}, failed ${n('failed')} of ${options.occurrences}`);
    }
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`${open} occurrences still waiting or running ${options.timeoutS} s after the first start`);
  }
}

/**
 * Asks every instance for GET /auth/login-methods once a second (one request at a time per
 * instance) while the occurrences run: how long the server keeps a console or an exhibit waiting
 * during a large pass. Answers the durations in ms when stopped.
 */
function startResponseProbe(nodes: Node[]): { stop: () => Promise<number[]> } {
  const durations: number[] = [];
  let stopped = false;
  const probe = async (node: Node) => {
    while (!stopped) {
      const started = performance.now();
      await fetch(`${node.url}/api/v1/auth/login-methods`).then((res) => res.arrayBuffer());
      durations.push(performance.now() - started);
      await sleep(1000);
    }
  };
  const running = Promise.all(nodes.map(probe));
  return {
    stop: async () => {
      stopped = true;
      await running;
      return durations.sort((a, b) => a - b);
    },
  };
}

/** Occurrences of the run and the exhibits' setting versions: the figures. */
function judge(input: { results: OccurrenceResult[]; before: Record<string, number>; after: Record<string, number>; targets: Map<string, number> }): Figure[] {
  const { results, before, after, targets } = input;
  const ran = results.filter((r) => r.ranAtMs !== null);
  const lateness = ran.map((r) => r.ranAtMs! - r.startMs).sort((a, b) => a - b);
  const twice = results.filter((r) => r.maxDonePerStep > 1).length;
  let over = 0;
  let under = 0;
  for (const [exhibitId, expected] of targets) {
    const rose = (after[exhibitId] ?? 0) - (before[exhibitId] ?? 0);
    if (rose > expected) over += 1;
    if (rose < expected) under += 1;
  }
  const count = (state: string) => results.filter((r) => r.state === state).length;
  const missed = count('missed');
  const firstStart = Math.min(...results.map((r) => r.startMs));
  const lastRun = Math.max(...ran.map((r) => r.ranAtMs!));
  const totalMs = lastRun - firstStart;
  return [
    { label: 'occurrences completed / failed', value: `${count('completed')} / ${count('failed')} of ${results.length}`, target: 'all completed', ok: count('completed') === results.length },
    { label: 'lateness p50 (ran_at − start_date)', value: late(quantile(lateness, 0.5)) },
    { label: 'lateness p99', value: late(quantile(lateness, 0.99)) },
    { label: 'lateness max', value: late(lateness.at(-1) ?? Number.NaN) },
    { label: 'run twice (a step done twice)', value: `${twice}`, target: '0', ok: twice === 0 },
    { label: 'settings whose version rose more / less than planned', value: `${over} / ${under} of ${targets.size}`, target: '0 / 0', ok: over === 0 && under === 0 },
    { label: 'missed', value: `${missed}`, target: '0', ok: missed === 0 },
    { label: 'first start → last run', value: `${seconds(totalMs)} (${(ran.length / (totalMs / 1000)).toFixed(0)} occurrences/s)` },
  ];
}

/** One database: setup, the occurrences, the wait, the reading. */
async function runOn(database: BenchDatabase, options: Options): Promise<Figure[]> {
  const { nodes, databaseName } = await startDeployment(database, options);
  const [first] = nodes as [Node];
  let started = performance.now();
  const exhibitIds = await createExhibits(first, options.exhibits);
  log(`${database}: ${exhibitIds.length} exhibits created through the REST API in ${seconds(performance.now() - started)}`);
  started = performance.now();
  await first.ask({ type: 'storeManifests', exhibitIds });
  log(`${database}: their manifest stored (ingestManifest in the server) in ${seconds(performance.now() - started)}`);
  const before = await first.ask<Record<string, number>>({ type: 'versions', exhibitIds });
  const startAtMs = Math.ceil((Date.now() + options.leadS * 1000) / 1000) * 1000;
  const prepare: Prepare = { exhibitIds, occurrences: options.occurrences, startAtMs, spreadMs: options.spreadS * 1000 };
  started = performance.now();
  await first.ask({ type: 'insertOccurrences', prepare });
  log(`${database}: ${options.occurrences} occurrences inserted in ${seconds(performance.now() - started)}, first start ${new Date(startAtMs).toISOString()}${options.spreadS ? `, spread over ${options.spreadS} s` : ', all at that instant'}`);
  if (Date.now() >= startAtMs) log(`WARNING: the setup ended after the first start; raise --lead`);
  const targets = new Map<string, number>();
  for (let i = 0; i < options.occurrences; i++) targets.set(exhibitIds[i % exhibitIds.length]!, (targets.get(exhibitIds[i % exhibitIds.length]!) ?? 0) + 1);

  await sleep(Math.max(0, startAtMs - Date.now()));
  const loadBefore = os.loadavg()[0]!;
  const cpu = startCpuWindow(() => nodes.map((n) => n.child.pid!));
  // The pools open and close backends as they like: count those alive at either end.
  let dbPids = await backendPids(databaseName);
  const dbCpu = startCpuWindow(() => dbPids);
  const probe = startResponseProbe(nodes);
  await waitForRuns(nodes, exhibitIds, { ...options, startAtMs });
  const used = cpu.stop();
  dbPids = [...new Set([...dbPids, ...(await backendPids(databaseName))])];
  const dbUsed = dbCpu.stop();
  const answers = await probe.stop();
  const results = await first.ask<OccurrenceResult[]>({ type: 'collect', exhibitIds });
  const after = await first.ask<Record<string, number>>({ type: 'versions', exhibitIds });
  return [
    { label: 'server instances', value: `${nodes.length}${nodes.length > 1 ? ' sharing the database, Redis hub' : ''}` },
    ...judge({ results, before, after, targets }),
    { label: 'HTTP answer during the run (p50 / max, 1 request/s per instance)', value: `${quantile(answers, 0.5).toFixed(0)} ms / ${(answers.at(-1) ?? Number.NaN).toFixed(0)} ms (${answers.length} requests)` },
    { label: 'server processes CPU (first start → all done)', value: `${used.percentOfOneCore.toFixed(0)}% of one core (${used.cpuSeconds.toFixed(0)} s in ${used.seconds.toFixed(0)} s)` },
    ...(databaseName ? [{ label: 'PostgreSQL backends CPU (same window)', value: `${dbUsed.percentOfOneCore.toFixed(0)}% of one core` }] : []),
    { label: `machine load average (1 min, ${os.cpus().length} cores)`, value: `${loadBefore.toFixed(2)} at the first start, ${os.loadavg()[0]!.toFixed(2)} at the end` },
  ];
}

async function main(): Promise<void> {
  const options = readOptions();
  log(
    `${options.occurrences} occurrences on ${options.exhibits} exhibits, ${options.spreadS ? `spread over ${options.spreadS} s` : 'all at the same instant'}; ` +
      `databases: ${options.databases.join(', ')} (PostgreSQL with ${options.nodes} instance(s), PGlite with 1)`,
  );
  const figures: Figure[] = [];
  let failed = false;
  for (const database of options.databases) {
    try {
      const measured = await runOn(database, options);
      figures.push(...measured.map((f) => ({ ...f, label: `${database}: ${f.label}` })));
    } catch (error) {
      failed = true;
      log(`${database} failed: ${(error as Error).message}`);
      figures.push({ label: `${database}: run`, value: `FAILED: ${(error as Error).message.split('\n')[0]}`, ok: false });
    } finally {
      await cleanUp();
      cleanups.clear();
    }
  }
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`\nScheduling benchmark (${new Date().toISOString()}, ${os.cpus().length} cores)`);
  for (const f of figures) {
    const target = f.target ? ` (target ${f.target})` : '';
    const verdict = f.ok === undefined ? '' : f.ok ? `  ok${target}` : `  MISSED${target}`;
    console.log(`  ${f.label.padEnd(width)}  ${f.value}${verdict}`);
  }
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'schedules', options, figures }, null, 2));
  if (failed || figures.some((f) => f.ok === false)) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(`[schedules] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
