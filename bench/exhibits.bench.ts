// Exhibit benchmark (issue 3): one Plinth server, thousands of @plinth/sdk exhibits in separate
// load-generator processes, each sending a status every 10 s, and one console socket subscribed
// to all of them. Prints connections held, status latency (setStatus → console socket), server
// CPU and memory per exhibit. The whole measure runs on each database of `--database` in turn
// (both by default: the embedded PGlite, then PostgreSQL) and the figures are printed side by
// side. Run through `npm run bench` (see docs/performance.md):
//   npm run bench -- exhibits --exhibits 100 --duration 20
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ManifestInput } from '@plinth/shared';
import { createApiClient } from './lib/api-client.js';
import { openSubscribedConsole } from './lib/console-socket.js';
import type { FromGenerator, LoadExhibit, ToGenerator } from './lib/load-protocol.js';
import { databasePids, onlineCount, stopLoadProcesses } from './lib/load-processes.js';
import { databaseCpu, figuresByDatabase, isFromSource, positiveNumber, printByDatabase, readFlags, readDatabases } from './lib/options.js';
import { startBenchServer, checkServerBuild, ROOT, settledRss, stopOnInterrupt, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { openFileLimits, rssBytes, runQueueWaitSeconds, startCpuWindow } from './lib/proc-stats.js';
import { mapLimit, mib, quantile } from './lib/stats.js';

const STATUS_ID = 'bench_sent_at';
const MANIFEST: ManifestInput = {
  statuses: [
    { id: STATUS_ID, type: 'String', display: 'Benchmark send time' },
    { id: 'count', type: 'Integer', display: 'Visitors', default: 0 },
  ],
  controls: [{ id: 'reload', type: 'Single', display: 'Reload' }],
  settings: [{ id: 'volume', type: 'IntegerInput', display: 'Volume', default: 5, min: 0, max: 10 }],
};

/** Issue 3's latency, and issue 22's memory: resident memory with no forced collection, at or under 12 KB an exhibit. */
const TARGETS = { p99Ms: 100, bytesPerExhibit: 12 * 1024 };

type Options = {
  exhibits: number;
  durationS: number;
  intervalS: number;
  rampPerSecond: number;
  generators: number;
  settleS: number;
  /** The databases measured, one after the other (`--database pglite|postgres|both`). */
  databases: BenchDatabase[];
  fromSource: boolean;
};

function readOptions(): Options {
  const values = readFlags({
    exhibits: { type: 'string' },
    duration: { type: 'string' },
    interval: { type: 'string' },
    ramp: { type: 'string' },
    generators: { type: 'string' },
    settle: { type: 'string' },
    database: { type: 'string' },
  });
  const env = process.env;
  const exhibits = Math.round(positiveNumber(values.exhibits, env.BENCH_EXHIBITS, 2000, 'exhibits'));
  return {
    exhibits,
    durationS: positiveNumber(values.duration, env.BENCH_DURATION, 60, 'duration'),
    intervalS: positiveNumber(values.interval, env.BENCH_INTERVAL, 10, 'interval'),
    rampPerSecond: positiveNumber(values.ramp, env.BENCH_RAMP, 100, 'ramp'),
    generators: Math.round(positiveNumber(values.generators, env.BENCH_GENERATORS, Math.max(1, Math.ceil(exhibits / 1000)), 'generators')),
    settleS: positiveNumber(values.settle, env.BENCH_SETTLE, 5, 'settle'),
    databases: readDatabases(values.database),
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[exhibits] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type Memory = { rss: number; heap: number };

/**
 * Server memory once it has settled: resident set, and JS heap used plus external buffers, after
 * full collections. V8 and the allocator hand freed pages back to the system late and in steps
 * (tens of MiB, up to ~25 s after activity), so this collects every 2 s until the resident set
 * has not moved for 10 s, for at least 30 s (at most 60 s).
 */
async function settledMemory(server: BenchServer): Promise<Memory> {
  const started = Date.now();
  const readings: number[] = [];
  let usage: NodeJS.MemoryUsage;
  for (;;) {
    usage = await server.memory();
    await sleep(2000);
    readings.push(rssBytes(server.pid) ?? usage.rss);
    const last = readings.slice(-6);
    const stable = last.length === 6 && Math.max(...last) - Math.min(...last) < 1024 * 1024;
    const elapsed = Date.now() - started;
    if ((stable && elapsed >= 30_000) || elapsed >= 60_000) break;
  }
  return { rss: readings.at(-1)!, heap: usage.heapUsed + usage.external };
}

/** Creates an organization, a site, the exhibits and one token each, through the REST API. */
async function createExhibits(server: BenchServer, count: number): Promise<LoadExhibit[]> {
  const api = createApiClient(server.url, server.adminCookie);
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Benchmark museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Benchmark hall', organizationId: organization.id });
  const width = String(count).length;
  return mapLimit(Array.from({ length: count }, (_, i) => i), 8, async (index) => {
    const exhibit = await api<{ id: string }>('POST', '/exhibit-management/exhibit', {
      name: `Exhibit ${String(index + 1).padStart(width, '0')}`,
      siteId: site.id,
    });
    const token = await api<{ token: string }>('POST', '/auth/exhibit', { name: 'benchmark', exhibitId: exhibit.id });
    return { id: exhibit.id, token: token.token, index };
  });
}

type ConsoleSocket = { latenciesMs: number[]; onlineEvents: number; close: () => void };

/** A console socket signed in with the admin's session cookie, subscribed to every exhibit. */
async function openConsoleSocket(server: BenchServer, exhibitIds: string[]): Promise<ConsoleSocket> {
  const result: ConsoleSocket = { latenciesMs: [], onlineEvents: 0, close: () => undefined };
  const socket = await openSubscribedConsole({
    url: server.url,
    cookie: server.adminCookie,
    kind: 'exhibitIds',
    ids: exhibitIds,
    batch: 5000,
    onEvent: (message, now) => {
      if (message.type === 'exhibit.statusChanged' && message.statusId === STATUS_ID && typeof message.value === 'string') {
        result.latenciesMs.push(Number(now - BigInt(message.value)) / 1e6);
      } else if (message.type === 'exhibit.presenceChanged' && message.online) {
        result.onlineEvents += 1;
      }
    },
  });
  result.close = () => socket.close();
  return result;
}

type Generator = { child: ChildProcess; last: Extract<FromGenerator, { type: 'progress' }> | null; sent: Extract<FromGenerator, { type: 'sent' }> | null };

function startGenerators(count: number): Generator[] {
  return Array.from({ length: count }, () => {
    const child = fork(path.join(ROOT, 'bench/lib/exhibit-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const generator: Generator = { child, last: null, sent: null };
    child.on('message', (message: FromGenerator) => {
      if (message.type === 'progress') generator.last = message;
      if (message.type === 'sent') generator.sent = message;
    });
    return generator;
  });
}

function tell(generator: Generator, message: ToGenerator): void {
  generator.child.send(message);
}

function totals(generators: Generator[]) {
  const sum = (pick: (g: NonNullable<Generator['last']>) => number) => generators.reduce((n, g) => n + (g.last ? pick(g.last) : 0), 0);
  return {
    ready: sum((g) => g.ready),
    failed: sum((g) => g.failed),
    disconnects: sum((g) => g.disconnects),
    reconnects: sum((g) => g.reconnects),
    errors: [...new Set(generators.flatMap((g) => g.last?.errors ?? []))],
  };
}

function stopGenerators(generators: Generator[]): Promise<void> {
  return stopLoadProcesses(
    generators.map((g) => g.child),
    { type: 'close' } satisfies ToGenerator,
    10_000,
  );
}

type Figure = { label: string; value: string; target?: string; ok?: boolean };

/** The server and the generators of the database being measured, for an interrupted run to stop. */
let runningServer: BenchServer | null = null;
let runningGenerators: Generator[] = [];

/** The whole measure on one database: a fresh server, the exhibits, the generators connecting and the steady state; answers its figures. */
async function runDatabase(database: BenchDatabase, options: Options): Promise<Figure[]> {
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  runningServer = server;
  let consoleSocket: ConsoleSocket | null = null;
  try {
    // Memory per exhibit (issue 22): the server's resident memory at the end of the steady state,
    // with no collection forced, less its memory with the exhibits created but none connected and
    // less the fresh server's; the larger counts (RSS falls in steps as the setup's leftovers are
    // handed back, which alone would flatter the first: one PGlite run gave -15.9 KB).
    const rssFresh = await settledRss(server);
    const fresh = await settledMemory(server);
    let started = performance.now();
    const list = await createExhibits(server, options.exhibits);
    const setupS = (performance.now() - started) / 1000;
    log(`${database}: created ${list.length} exhibits and tokens through the REST API in ${setupS.toFixed(1)} s`);

    const socket = await openConsoleSocket(server, list.map((e) => e.id));
    consoleSocket = socket;
    log('console socket signed in with the admin session and subscribed to every exhibit');

    const rssBefore = await settledRss(server);
    runningGenerators = startGenerators(options.generators);
    const generators = runningGenerators;
    const rampCpu = startCpuWindow(() => [server.pid]);
    started = performance.now();
    generators.forEach((generator, g) =>
      tell(generator, {
        type: 'connect',
        serverUrl: server.url,
        exhibits: list.filter((e) => e.index % generators.length === g),
        perSecond: options.rampPerSecond / generators.length,
        manifest: MANIFEST,
      }),
    );
    const rampDeadline = Date.now() + (options.exhibits / options.rampPerSecond) * 1000 + 60_000;
    let lastLine = 0;
    for (;;) {
      await sleep(500);
      const t = totals(generators);
      if (Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        log(`connecting: ${t.ready} ready, ${t.failed} failed`);
      }
      if (t.ready + t.failed >= options.exhibits) break;
      if (Date.now() > rampDeadline) throw new Error(`only ${t.ready} of ${options.exhibits} exhibits were ready in time; errors: ${t.errors.join('; ')}`);
    }
    const rampS = (performance.now() - started) / 1000;
    const ramp = rampCpu.stop();
    const afterRamp = totals(generators);
    if (afterRamp.failed) log(`${afterRamp.failed} exhibits failed: ${afterRamp.errors.join('; ')}`);
    await sleep(options.settleS * 1000);
    const rssConnected = await settledRss(server);
    const heldAfterRamp = await onlineCount(server, 'exhibits');
    log(`${afterRamp.ready} exhibits ready in ${rampS.toFixed(1)} s; the server has ${heldAfterRamp} online`);

    // Steady state: statuses spread evenly over each interval, for the measured duration.
    socket.latenciesMs.length = 0;
    const disconnectsBefore = totals(generators).disconnects;
    const intervalMs = options.intervalS * 1000;
    const durationMs = options.durationS * 1000;
    const startAt = Date.now() + 1000;
    for (const generator of generators) {
      tell(generator, { type: 'send', statusId: STATUS_ID, startAt, intervalMs, durationMs, total: options.exhibits });
    }
    await sleep(startAt - Date.now());
    const startLoad = os.loadavg()[0]!;
    const waitBefore = { server: runQueueWaitSeconds(server.pid), console: runQueueWaitSeconds(process.pid) };
    // The pool opens and closes backends as it likes: count those alive at either end of the window.
    let dbPids = await databasePids(server);
    const steadyCpu = startCpuWindow(() => [server.pid]);
    const dbCpu = startCpuWindow(() => dbPids);
    const generatorCpu = startCpuWindow(() => generators.map((g) => g.child.pid!));
    await sleep(durationMs);
    dbPids = await databasePids(server);
    const steady = steadyCpu.stop();
    const waited = (pid: number, before: number | null) => {
      const now = runQueueWaitSeconds(pid);
      return now === null || before === null ? 'n/a' : `${(((now - before) / steady.seconds) * 1000).toFixed(0)} ms/s`;
    };
    const serverWait = waited(server.pid, waitBefore.server);
    const consoleWait = waited(process.pid, waitBefore.console);
    const db = dbCpu.stop();
    const load = generatorCpu.stop();
    for (let i = 0; i < 100 && generators.some((g) => !g.sent); i++) await sleep(100);
    await sleep(2000); // the last statuses in flight
    const rssEnd = await settledRss(server);
    const atEnd = await settledMemory(server);
    const heldAtEnd = await onlineCount(server, 'exhibits');
    const end = totals(generators);
    const sent = generators.reduce((n, g) => n + (g.sent?.sent ?? 0), 0);
    const sentOffline = generators.reduce((n, g) => n + (g.sent?.sentOffline ?? 0), 0);
    const latencies = [...socket.latenciesMs].sort((a, b) => a - b);
    const held = Math.min(heldAfterRamp, afterRamp.ready);
    // The larger of the two: neither the setup's leftovers nor the memory they free later may flatter it.
    const perExhibit = Math.max(rssEnd - rssBefore, rssEnd - rssFresh) / held;
    const perExhibitAfterGc = (atEnd.rss - fresh.rss) / held;
    const heapPerExhibit = (atEnd.heap - fresh.heap) / held;
    const p99 = quantile(latencies, 0.99);

    const figures: Figure[] = [
      { label: 'exhibits connected and held', value: `${heldAtEnd} of ${options.exhibits} (after ramp ${heldAfterRamp})`, target: `${options.exhibits}`, ok: heldAtEnd === options.exhibits && afterRamp.failed === 0 },
      { label: 'disconnections during the measurement', value: `${end.disconnects - disconnectsBefore}` },
      { label: 'REST setup (org, site, exhibits, tokens)', value: `${setupS.toFixed(1)} s` },
      { label: `connecting (auth + socket + manifest + sync)`, value: `${rampS.toFixed(1)} s, server CPU ${ramp.percentOfOneCore.toFixed(0)}% of a core` },
      { label: 'statuses sent / received by the console', value: `${sent} / ${latencies.length}${sentOffline ? ` (+${sentOffline} while offline)` : ''}`, ok: latencies.length === sent + sentOffline },
      { label: 'status rate', value: `${(latencies.length / options.durationS).toFixed(0)} /s` },
      { label: 'latency setStatus → console p50', value: `${quantile(latencies, 0.5).toFixed(1)} ms` },
      { label: 'latency p90', value: `${quantile(latencies, 0.9).toFixed(1)} ms` },
      { label: 'latency p99', value: `${p99.toFixed(1)} ms`, target: `< ${TARGETS.p99Ms} ms`, ok: p99 < TARGETS.p99Ms },
      { label: 'latency max', value: `${(latencies.at(-1) ?? Number.NaN).toFixed(1)} ms` },
      { label: 'server CPU, steady state', value: `${steady.percentOfOneCore.toFixed(1)}% of one core (${steady.cpuSeconds.toFixed(1)} s in ${steady.seconds.toFixed(0)} s)` },
      { label: 'database CPU, steady state', value: databaseCpu(database, db.percentOfOneCore) },
      { label: 'load generators CPU, steady state', value: `${load.percentOfOneCore.toFixed(1)}% of one core` },
      { label: 'machine load average (1 min, 2 cores)', value: `${startLoad.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end of the measurement` },
      { label: 'waiting for a CPU while runnable (server / console)', value: `${serverWait} / ${consoleWait} (main threads)` },
      { label: 'server RSS fresh / exhibits created / connected / end', value: `${mib(rssFresh)} / ${mib(rssBefore)} / ${mib(rssConnected)} / ${mib(rssEnd)} (an exhibit: ${kb((rssConnected - rssBefore) / held)} connected less created, ${kb((rssEnd - rssFresh) / held)} end less fresh)` },
      { label: 'server memory per exhibit (RSS, no forced collection: the larger of end less created and end less fresh)', value: kb(perExhibit), target: `≤ ${TARGETS.bytesPerExhibit / 1024} KB`, ok: perExhibit <= TARGETS.bytesPerExhibit },
      { label: 'after full collections (end less fresh): RSS / JS heap + external per exhibit', value: `${kb(perExhibitAfterGc)} / ${kb(heapPerExhibit)}` },
    ];
    if (end.errors.length) log(`exhibit errors seen: ${end.errors.join('; ')}`);
    return figures;
  } catch (error) {
    const tail = server.logTail(20);
    if (tail) log(`server log tail:\n${tail}`);
    throw error;
  } finally {
    consoleSocket?.close();
    await stopGenerators(runningGenerators);
    await server.stop();
    log(`${database}: stopped the server and the generators, removed the database`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const limits = openFileLimits();
  // Each connection is one descriptor here and one in the server (both inherit this limit).
  const need = Math.ceil(options.exhibits / options.generators) + 200;
  if (limits && limits.soft < need) {
    throw new Error(`the open-file limit is ${limits.soft}; run \`ulimit -n ${Math.max(need * 2, 4096)}\` first (npm run bench raises it to the hard limit, ${limits.hard})`);
  }
  log(
    `${options.exhibits} exhibits in ${options.generators} generator process(es), a status every ${options.intervalS} s, ` +
      `${options.durationS} s measured, connecting ${options.rampPerSecond}/s; database ${options.databases.join(' then ')}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  stopOnInterrupt(log, () => stopGenerators(runningGenerators).then(() => runningServer?.stop()));

  const runs: { database: BenchDatabase; figures: Figure[] }[] = [];
  for (const database of options.databases) runs.push({ database, figures: await runDatabase(database, options) });
  printByDatabase(`Exhibit benchmark: ${options.exhibits} exhibits, a status every ${options.intervalS} s, ${options.durationS} s measured (${new Date().toISOString()})`, runs);
  writeResults(options, figuresByDatabase(runs));
}

/** `npm run bench` collects figures from the file named by BENCH_RESULTS_FILE (see scripts/bench.mjs). */
function writeResults(options: Options, figures: Figure[]): void {
  const file = process.env.BENCH_RESULTS_FILE;
  if (!file) return;
  fs.writeFileSync(file, JSON.stringify({ name: 'exhibits', options, figures }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[exhibits] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
