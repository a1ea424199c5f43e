// Saturation benchmark (issue 22): how many prop changes a second one Plinth node carries from
// boards to a subscribed console, against bare aedes (the broker Plinth embeds, alone in its own
// process) under the same load shape: the same boards and connections, the same per-connection
// window of QoS 1 messages in flight (until their PUBACK), the same topics and payloads. Plinth's
// rate is what a console socket on `/ws` receives; the broker's what a plain MQTT subscriber
// receives. Rounds alternate (Plinth, broker, Plinth, broker) and each side's best round counts;
// loss and order are checked at the receiver every round. Run through `npm run bench` (see
// docs/performance.md, "Saturation: Plinth against the bare broker"):
//   npm run bench -- saturation
//   npm run bench -- saturation --shapes 200x10 --database pglite --quick
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FleetBoard } from './hardware-protocol.js';
import { createApiClient } from './lib/api-client.js';
import { databasePids, stopLoadProcesses } from './lib/load-processes.js';
import { isFromSource, readFlags, wholeNumber, positiveNumber, readDatabases } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { openFileLimits, startCpuWindow } from './lib/proc-stats.js';
import { mapLimit } from './lib/stats.js';
import type { FromLoad, FromReceiver, Side, ToLoad, ToReceiver } from './saturation-protocol.js';

/** A load shape: how many boards (one connection each) and how many messages each keeps in flight. */
type Shape = { boards: number; window: number };

type Options = {
  shapes: Shape[];
  rounds: number;
  seconds: number;
  warmupS: number;
  loads: number;
  databases: BenchDatabase[];
  fromSource: boolean;
};

/** A process at or above this share of one core is named as the limit of its round. */
const LIMIT_PERCENT = 90;
/** Before a round, both servers must be under this share of a core (what the last round left is done). */
const QUIET_PERCENT = 20;
/** How long a round waits after the load stops for the receiver to see the rest. */
const DRAIN_MS = 30_000;
/** A side that delivers less than this share of what it acknowledges is queueing: said in the output. */
const BACKLOG_SHARE = 0.8;

function parseShapes(text: string): Shape[] {
  return text.split(',').map((item) => {
    const match = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(item);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`--shapes takes boards x window, comma separated (got ${item})`);
    return { boards: Number(match[1]), window: Number(match[2]) };
  });
}

function readOptions(): Options {
  const values = readFlags({
    shapes: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    loads: { type: 'string' },
    database: { type: 'string' },
    quick: { type: 'boolean' },
  });
  const env = process.env;
  const quick = values.quick === true || env.BENCH_QUICK === '1';
  return {
    shapes: parseShapes(String(values.shapes ?? env.BENCH_SHAPES ?? '20x100,200x10,2000x1')),
    rounds: wholeNumber(values.rounds, env.BENCH_ROUNDS, quick ? 1 : 2, 'rounds'),
    seconds: positiveNumber(values.seconds, env.BENCH_SECONDS, quick ? 2 : 5, 'seconds'),
    warmupS: positiveNumber(values.warmup, env.BENCH_WARMUP, quick ? 1 : 2, 'warmup'),
    loads: wholeNumber(values.loads, env.BENCH_LOADS, 2, 'loads'),
    databases: readDatabases(values.database),
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[saturation] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A forked helper process and a way to wait for its next message matching a test. */
type Helper<In, Out> = { child: ChildProcess; send: (message: In) => void; next: <T extends Out>(test: (m: Out) => m is T, timeoutMs?: number) => Promise<T> };

function forkHelper<In, Out>(file: string): Helper<In, Out> {
  const child = fork(path.join(ROOT, 'bench', file), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Set<(m: Out) => boolean>();
  child.on('message', (message: Out) => {
    for (const take of waiting) if (take(message)) return;
  });
  return {
    child,
    send: (message) => {
      if (child.connected) child.send(message as object);
    },
    next: <T extends Out>(test: (m: Out) => m is T, timeoutMs = 120_000) =>
      new Promise<T>((resolve, reject) => {
        const take = (m: Out) => {
          if (!test(m)) return false;
          waiting.delete(take);
          clearTimeout(timer);
          resolve(m);
          return true;
        };
        const timer = setTimeout(() => {
          waiting.delete(take);
          reject(new Error(`${file} did not answer within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiting.add(take);
      }),
  };
}

type Load = Helper<ToLoad, FromLoad>;
type Receiver = Helper<ToReceiver, FromReceiver>;

/** The bare broker of the shape being measured, for an interrupted run to stop. */
let runningBroker: ChildProcess | null = null;

/**
 * The bare broker (bench/hardware-aedes-broker.ts) in its own process, its URL, and `stop`, which
 * answers how it ended. A fresh one per shape: what one shape leaves queued in it (see
 * docs/performance.md) must not run during the next.
 */
async function startBroker(): Promise<{ child: ChildProcess; url: string; stop: () => Promise<string> }> {
  const child = fork(path.join(ROOT, 'bench/hardware-aedes-broker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)));
  const port = await Promise.race([
    new Promise<number>((resolve) => child.once('message', (message: { port: number }) => resolve(message.port))),
    exited.then((how) => Promise.reject(new Error(`the aedes broker ended (${how})`))),
  ]);
  runningBroker = child;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.send({ type: 'close' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const how = await exited;
    clearTimeout(timer);
    runningBroker = null;
    return how;
  };
  return { child, url: `mqtt://127.0.0.1:${port}`, stop };
}

async function openSubscriber(receiver: Receiver, url: string): Promise<void> {
  const opened = receiver.next((m): m is Extract<FromReceiver, { type: 'opened' | 'failed' }> => (m.type === 'opened' || m.type === 'failed') && m.side === 'broker');
  receiver.send({ type: 'open-subscriber', url });
  const answer = await opened;
  if (answer.type === 'failed') throw new Error(answer.error);
}

/** An organization, a site, and `count` boards with one token each, all through the REST API (PGlite has no other way in). */
async function createBoards(server: BenchServer, count: number): Promise<FleetBoard[]> {
  const api = createApiClient(server.url, server.adminCookie);
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Saturation museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Saturation hall', organizationId: organization.id });
  const width = String(count).length;
  return mapLimit(Array.from({ length: count }, (_, i) => i), 8, async (i) => {
    const hardware = await api<{ id: string }>('POST', '/hardware-mgmt/hardware', { name: `Board ${String(i + 1).padStart(width, '0')}`, siteId: site.id });
    const token = await api<{ token: string }>('POST', '/auth/hardware', { name: 'saturation', hardwareId: hardware.id });
    return { id: hardware.id, token: token.token };
  });
}

/** One side's figures over one round. */
type Round = {
  side: Side;
  perSecond: number;
  received: number;
  seconds: number;
  sent: number;
  /** Messages acknowledged (PUBACK) a second over the whole round, warm-up included. */
  acknowledgedPerSecond: number;
  lost: number;
  reordered: number;
  unacknowledged: number;
  /** CPU seconds of the server (Plinth, PGlite included) or the bare broker in the measured window. */
  serverCpuSeconds: number;
  /** Share of one core of each process in the measured window. */
  cpu: { label: string; percent: number }[];
};

type Processes = { server: BenchServer; broker: ChildProcess; loads: Load[]; receiver: Receiver };

async function countOf(receiver: Receiver, side: Side) {
  const answer = receiver.next((m): m is Extract<FromReceiver, { type: 'count' }> => m.type === 'count' && m.side === side, 10_000);
  receiver.send({ type: 'count', side });
  return answer;
}

/** Waits (at most a minute) until the Plinth server and the bare broker are both nearly idle. */
async function settle(processes: Processes): Promise<void> {
  const pids = [processes.server.pid, processes.broker.pid!];
  for (let i = 0; i < 120; i++) {
    const windows = pids.map((pid) => startCpuWindow(() => [pid]));
    await sleep(500);
    const busy = windows.map((w) => w.stop().percentOfOneCore);
    if (busy.every((percent) => percent < QUIET_PERCENT)) return;
    if (i === 119) log(`  still busy after a minute (Plinth ${busy[0]!.toFixed(0)}%, aedes ${busy[1]!.toFixed(0)}% of a core): measuring anyway`);
  }
}

/**
 * One round of one side: every connection fills its window, the receiver's count is taken after
 * the warm-up and again `seconds` later, with every process's CPU over the same window; then the
 * load stops, the receiver drains, and what was sent is compared with what arrived.
 */
async function runRound(side: Side, window: number, processes: Processes, options: Options): Promise<Round> {
  const { server, broker, loads, receiver } = processes;
  const dbPids = side === 'plinth' ? await databasePids(server).catch(() => []) : [];
  await settle(processes);
  const start = await countOf(receiver, side);
  const startedAt = performance.now();
  for (const load of loads) load.send({ type: 'start', side, window });
  await sleep(options.warmupS * 1000);
  const serverPid = side === 'plinth' ? server.pid : broker.pid!;
  const windows = [
    { label: side === 'plinth' ? 'Plinth server' : 'bare aedes', cpu: startCpuWindow(() => [serverPid]) },
    ...(dbPids.length ? [{ label: 'PostgreSQL backends', cpu: startCpuWindow(() => dbPids) }] : []),
    ...loads.map((load, i) => ({ label: `load ${i + 1}`, cpu: startCpuWindow(() => [load.child.pid!]) })),
    { label: 'receiver', cpu: startCpuWindow(() => [receiver.child.pid!]) },
    { label: 'bench', cpu: startCpuWindow(() => [process.pid]) },
  ];
  const from = await countOf(receiver, side);
  await sleep(options.seconds * 1000);
  const to = await countOf(receiver, side);
  const cpu = windows.map((w) => ({ label: w.label, ...w.cpu.stop() }));
  const stopped = loads.map((load) => load.next((m): m is Extract<FromLoad, { type: 'stopped' }> => m.type === 'stopped' && m.side === side, 30_000));
  for (const load of loads) load.send({ type: 'stop', side });
  const totals = await Promise.all(stopped);
  const sendingS = (performance.now() - startedAt) / 1000;
  const sent = totals.reduce((n, t) => n + t.sent, 0);
  const unacknowledged = totals.reduce((n, t) => n + t.unacknowledged, 0);
  // Drain: wait until everything sent has arrived, nothing more arrives for 2 s, or DRAIN_MS passed.
  let end = await countOf(receiver, side);
  const drainUntil = performance.now() + DRAIN_MS;
  for (let quiet = 0; end.received - start.received < sent && quiet < 20 && performance.now() < drainUntil; ) {
    await sleep(100);
    const now = await countOf(receiver, side);
    quiet = now.received === end.received ? quiet + 1 : 0;
    end = now;
  }
  const received = to.received - from.received;
  const seconds = (to.at - from.at) / 1000;
  return {
    side,
    perSecond: received / seconds,
    received,
    seconds,
    sent,
    acknowledgedPerSecond: (sent - unacknowledged) / sendingS,
    lost: Math.max(0, sent - (end.received - start.received)),
    reordered: end.reordered - start.reordered,
    unacknowledged,
    serverCpuSeconds: cpu[0]!.cpuSeconds,
    cpu: cpu.map((c) => ({ label: c.label, percent: c.percentOfOneCore })),
  };
}

/** Opens one connection per board on `side`, spread over the load processes. */
async function connectSide(side: Side, url: string, boards: FleetBoard[], loads: Load[]): Promise<void> {
  const answers = loads.map((load) => load.next((m): m is Extract<FromLoad, { type: 'connected' }> => m.type === 'connected' && m.side === side, 300_000));
  loads.forEach((load, i) => load.send({ type: 'connect', side, url, boards: boards.filter((_, b) => b % loads.length === i) }));
  const connected = await Promise.all(answers);
  const failed = connected.reduce((n, c) => n + c.failed, 0);
  if (failed) throw new Error(`${failed} of ${boards.length} ${side} connections failed: ${[...new Set(connected.flatMap((c) => c.errors))].join('; ')}`);
}

async function disconnectSide(side: Side, loads: Load[]): Promise<void> {
  const answers = loads.map((load) => load.next((m): m is Extract<FromLoad, { type: 'disconnected' }> => m.type === 'disconnected' && m.side === side, 60_000));
  for (const load of loads) load.send({ type: 'disconnect', side });
  await Promise.all(answers);
}

type ShapeResult = { database: BenchDatabase; shape: Shape; rounds: Round[] };

async function runShape(shape: Shape, boards: FleetBoard[], plinthUrl: string, base: Omit<Processes, 'broker'>, options: Options): Promise<Round[]> {
  const used = boards.slice(0, shape.boards);
  const broker = await startBroker();
  const processes: Processes = { ...base, broker: broker.child };
  const urls: Record<Side, string> = { plinth: plinthUrl, broker: broker.url };
  const rounds: Round[] = [];
  try {
    await openSubscriber(processes.receiver, broker.url);
    const started = performance.now();
    for (const side of ['plinth', 'broker'] as const) {
      processes.receiver.send({ type: 'reset', side });
      await connectSide(side, urls[side], used, processes.loads);
    }
    log(`${shape.boards} × ${shape.window}: ${shape.boards} connections to each side in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (let r = 1; r <= options.rounds; r++) {
      for (const side of ['plinth', 'broker'] as const) {
        const round = await runRound(side, shape.window, processes, options);
        rounds.push(round);
        const lossy = round.lost || round.reordered ? `  LOST ${round.lost} REORDERED ${round.reordered}` : '';
        log(`  round ${r} ${side.padEnd(6)} ${round.perSecond.toFixed(0).padStart(6)} /s (acknowledged ${round.acknowledgedPerSecond.toFixed(0)} /s)  ${cpuLine(round)}${lossy}`);
      }
    }
  } finally {
    await disconnectSide('plinth', processes.loads);
    await disconnectSide('broker', processes.loads);
    processes.receiver.send({ type: 'close-subscriber' });
    const how = await broker.stop();
    if (how !== 'exit code 0') log(`  bare aedes ended with ${how} when its connections closed`);
  }
  return rounds;
}

function cpuLine(round: Round): string {
  return round.cpu.map((c) => `${c.label} ${c.percent.toFixed(0)}%`).join(', ');
}

/** The processes at or above LIMIT_PERCENT of a core that are not the server measured. */
function limits(round: Round): string[] {
  return round.cpu.slice(1).filter((c) => c.percent >= LIMIT_PERCENT && c.label !== 'PostgreSQL backends').map((c) => `${c.label} at ${c.percent.toFixed(0)}%`);
}

const best = (rounds: Round[], side: Side) => rounds.filter((r) => r.side === side).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));

type Figure = { label: string; value: string };

const queueing = (r: Round) => r.perSecond < r.acknowledgedPerSecond * BACKLOG_SHARE;

/** Loss and order of one side over all its rounds of a shape. */
function lossLine(rounds: Round[], side: Side): string {
  const mine = rounds.filter((r) => r.side === side);
  const sum = (pick: (r: Round) => number) => mine.reduce((n, r) => n + pick(r), 0);
  const unacknowledged = sum((r) => r.unacknowledged);
  return `${sum((r) => r.lost)} lost, ${sum((r) => r.reordered)} reordered of ${sum((r) => r.sent)}${unacknowledged ? ` (${unacknowledged} never acknowledged)` : ''}`;
}

/**
 * The ratio of the best rounds; when bare aedes queued (delivered far less than it acknowledged)
 * its delivered rate is no reference, and Plinth is given against what aedes acknowledged instead.
 */
function ratioLine(plinth: Round, broker: Round): string {
  if (!queueing(broker)) return `${((plinth.perSecond / broker.perSecond) * 100).toFixed(1)}%`;
  return `n/a: aedes queued (delivered ${broker.perSecond.toFixed(0)} of ${broker.acknowledgedPerSecond.toFixed(0)} /s acknowledged); Plinth = ${((plinth.perSecond / broker.acknowledgedPerSecond) * 100).toFixed(1)}% of what aedes acknowledged`;
}

function summarize(results: ShapeResult[]): Figure[] {
  const figures: Figure[] = [];
  console.log('\nSaturation: Plinth (console on /ws) against bare aedes (MQTT subscriber), best round of each side');
  for (const { database, shape, rounds } of results) {
    const plinth = best(rounds, 'plinth');
    const broker = best(rounds, 'broker');
    const cost = (r: Round) => (r.serverCpuSeconds / r.received) * 1e6;
    const name = `${database} ${shape.boards} × ${shape.window}`;
    console.log(`  ${name}`);
    console.log(`    Plinth      ${plinth.perSecond.toFixed(0).padStart(7)} /s  ${cost(plinth).toFixed(1)} µs server CPU a message  (${cpuLine(plinth)})`);
    console.log(`    bare aedes  ${broker.perSecond.toFixed(0).padStart(7)} /s  ${cost(broker).toFixed(1)} µs broker CPU a message  (${cpuLine(broker)})`);
    console.log(`    ratio       ${ratioLine(plinth, broker)}   rounds: ${rounds.map((r) => `${r.side} ${r.perSecond.toFixed(0)}`).join(', ')}`);
    console.log(`    loss/order  Plinth ${lossLine(rounds, 'plinth')}; aedes ${lossLine(rounds, 'broker')} (lost: not received ${DRAIN_MS / 1000} s after the load stopped)`);
    for (const r of [plinth, broker]) {
      const limit = limits(r);
      if (limit.length) console.log(`    LIMIT: the ${r.side} round was capped by the bench, not the server: ${limit.join(', ')}`);
      if (queueing(r)) console.log(`    BACKLOG: ${r.side} acknowledged ${r.acknowledgedPerSecond.toFixed(0)} /s but delivered ${r.perSecond.toFixed(0)} /s: it queues the rest`);
    }
    figures.push(
      { label: `${name}: Plinth / bare aedes`, value: `${plinth.perSecond.toFixed(0)} / ${broker.perSecond.toFixed(0)} /s = ${ratioLine(plinth, broker)}` },
      { label: `${name}: server CPU a message, Plinth / aedes`, value: `${cost(plinth).toFixed(1)} / ${cost(broker).toFixed(1)} µs (${plinth.cpu[0]!.percent.toFixed(0)}% / ${broker.cpu[0]!.percent.toFixed(0)}% of a core)` },
      { label: `${name}: loss / order`, value: `Plinth ${lossLine(rounds, 'plinth')}; aedes ${lossLine(rounds, 'broker')}` },
    );
  }
  return figures;
}

/** The Plinth server of the database being measured, for an interrupted run to stop. */
let runningServer: BenchServer | null = null;

async function runDatabase(database: BenchDatabase, loads: Load[], receiver: Receiver, options: Options): Promise<ShapeResult[]> {
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  runningServer = server;
  try {
    const started = performance.now();
    const boards = await createBoards(server, Math.max(...options.shapes.map((s) => s.boards)));
    log(`${database}: created ${boards.length} boards and tokens through the REST API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const opened = receiver.next((m): m is Extract<FromReceiver, { type: 'opened' | 'failed' }> => (m.type === 'opened' || m.type === 'failed') && m.side === 'plinth');
    receiver.send({ type: 'open-console', url: server.url, cookie: server.adminCookie, hardwareIds: boards.map((b) => b.id) });
    const answer = await opened;
    if (answer.type === 'failed') throw new Error(answer.error);
    const config = await createApiClient(server.url, server.adminCookie)<{ mqttPort: number }>('GET', '/config');
    const results: ShapeResult[] = [];
    for (const shape of options.shapes) {
      results.push({ database, shape, rounds: await runShape(shape, boards, `mqtt://127.0.0.1:${config.mqttPort}`, { server, loads, receiver }, options) });
    }
    receiver.send({ type: 'close-console' });
    return results;
  } catch (error) {
    const tail = server.logTail(20);
    if (tail) log(`server log tail:\n${tail}`);
    throw error;
  } finally {
    runningServer = null;
    await server.stop();
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const most = Math.max(...options.shapes.map((s) => s.boards));
  const limitsNow = openFileLimits();
  // Each board holds two sockets in the load processes (one per side) and one in each server.
  if (limitsNow && limitsNow.soft < most * 2 + 500) {
    throw new Error(`the open-file limit is ${limitsNow.soft}; run \`ulimit -n ${most * 4}\` first (npm run bench raises it to the hard limit, ${limitsNow.hard})`);
  }
  log(
    `shapes ${options.shapes.map((s) => `${s.boards} × ${s.window}`).join(', ')}; ${options.rounds} round(s) a side, ${options.warmupS} s warm-up + ${options.seconds} s measured; ` +
      `${options.loads} load process(es); database ${options.databases.join(' and ')}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const loads = Array.from({ length: options.loads }, () => forkHelper<ToLoad, FromLoad>('saturation-load.ts'));
  const receiver = forkHelper<ToReceiver, FromReceiver>('saturation-receiver.ts');
  const children = [...loads.map((l) => l.child), receiver.child];
  const interrupted = () => {
    log('interrupted: stopping');
    runningBroker?.kill('SIGKILL');
    void Promise.all([stopLoadProcesses(children, { type: 'close' }, 5000), runningServer?.stop()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const results: ShapeResult[] = [];
    for (const database of options.databases) results.push(...(await runDatabase(database, loads, receiver, options)));
    const figures = summarize(results);
    const file = process.env.BENCH_RESULTS_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify({ name: 'saturation', options, figures }, null, 2));
  } finally {
    await stopLoadProcesses(children, { type: 'close' }, 5000);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[saturation] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
