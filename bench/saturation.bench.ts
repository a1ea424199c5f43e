// Saturation benchmark (issue 22): how many prop changes a second one Plinth node carries from
// boards to a subscribed console, against bare aedes (the broker Plinth embeds, alone in its own
// process) under the same load shape: the same boards and connections, the same per-connection
// window of QoS 1 messages in flight (until their PUBACK), the same topics and payloads. Plinth's
// rate is what a console socket on `/ws` receives; the broker's what a plain MQTT subscriber
// receives. Rounds alternate (Plinth, broker, Plinth, broker) and each side's best round counts;
// loss and order are checked at the receiver every round. Then the same measure for exhibits'
// statuses: SDK sockets (saturation-exhibit-load.ts) write `status` messages as fast as the
// server reads them (TCP backpressure: statuses have no acknowledgement), and the rate is what a
// console socket subscribed to every exhibit receives as `exhibit.statusChanged`, against the
// issue's 20,000 a second. Run through `npm run bench` (see docs/performance.md, "Saturation:
// Plinth against the bare broker"):
//   npm run bench -- saturation
//   npm run bench -- saturation --shapes 200x10 --database pglite --quick
//   npm run bench -- saturation --shapes none --exhibit-shapes 20x10 --database pglite --quick
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FleetBoard } from './hardware-protocol.js';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { databasePids, stopLoadProcesses } from './lib/load-processes.js';
import { isFromSource, readFlags, wholeNumber, wholeNumberOrZero, positiveNumber, readDatabases } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { openFileLimits, startCpuWindow } from './lib/proc-stats.js';
import { mapLimit } from './lib/stats.js';
import { STATUS_FRAME_BYTES, type FromExhibitLoad, type FromLoad, type FromReceiver, type LoadExhibit, type Side, type Stream, type ToExhibitLoad, type ToLoad, type ToReceiver } from './saturation-protocol.js';

/**
 * A load shape: how many boards (one connection each) and how many messages each keeps in flight;
 * for exhibits, how many exhibits (one SDK socket each) and how many statuses each keeps buffered.
 */
type Shape = { boards: number; window: number };

type Options = {
  shapes: Shape[];
  exhibitShapes: Shape[];
  /** Statuses all exhibit sockets together may have beyond their last `pong` (0: no bound, backpressure alone). */
  exhibitInFlight: number;
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
/** Issue 22: exhibits' statuses one node carries to a console. */
const EXHIBIT_TARGET_PER_SECOND = 20_000;
/**
 * Exhibits' warm-up goes on (at most WARMUP_MAX_MS more) until, over a second, the load sent at
 * most this multiple of what the console received: until then the kernel's socket buffers are
 * still filling (megabytes a socket), and the load runs ahead of the server.
 */
const PACED_RATIO = 1.1;
const WARMUP_MAX_MS = 60_000;

/** Shapes as `connections x window`, comma separated; `none` for no shape (that part is skipped). */
function parseShapes(text: string, flag: string): Shape[] {
  if (text.trim() === 'none') return [];
  return text.split(',').map((item) => {
    const match = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(item);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`--${flag} takes connections x window, comma separated, or none (got ${item})`);
    return { boards: Number(match[1]), window: Number(match[2]) };
  });
}

function readOptions(): Options {
  const values = readFlags({
    shapes: { type: 'string' },
    'exhibit-shapes': { type: 'string' },
    'exhibit-in-flight': { type: 'string' },
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
    shapes: parseShapes(String(values.shapes ?? env.BENCH_SHAPES ?? '20x100,200x10,2000x1'), 'shapes'),
    exhibitShapes: parseShapes(String(values['exhibit-shapes'] ?? env.BENCH_EXHIBIT_SHAPES ?? '20x100,200x10,2000x1'), 'exhibit-shapes'),
    exhibitInFlight: wholeNumberOrZero(values['exhibit-in-flight'], env.BENCH_EXHIBIT_IN_FLIGHT, 20_000, 'exhibit-in-flight'),
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

/** Sends each helper its message (`message(i)` to the i-th) and waits for every one's answer that passes `test`. */
function askAll<In, Out, T extends Out>(helpers: Helper<In, Out>[], message: (i: number) => In, test: (m: Out) => m is T, timeoutMs: number): Promise<T[]> {
  const answers = helpers.map((helper) => helper.next(test, timeoutMs));
  helpers.forEach((helper, i) => helper.send(message(i)));
  return Promise.all(answers);
}

type Load = Helper<ToLoad, FromLoad>;
type ExhibitLoad = Helper<ToExhibitLoad, FromExhibitLoad>;
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

/** Has the receiver open one of its sockets (`message`) for `side`, and waits until it is subscribed. */
async function openReceiver(receiver: Receiver, side: Stream, message: ToReceiver): Promise<void> {
  const opened = receiver.next((m): m is Extract<FromReceiver, { type: 'opened' | 'failed' }> => (m.type === 'opened' || m.type === 'failed') && m.side === side);
  receiver.send(message);
  const answer = await opened;
  if (answer.type === 'failed') throw new Error(answer.error);
}

/** The REST API as the platform admin, and an organization with one site, for the boards and exhibits. */
async function createSite(server: BenchServer): Promise<{ api: ApiClient; siteId: string }> {
  const api = createApiClient(server.url, server.adminCookie);
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Saturation museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Saturation hall', organizationId: organization.id });
  return { api, siteId: site.id };
}

/**
 * `count` boards (`kind` hardware) or exhibits on the site, with one token each, all through the
 * REST API (PGlite has no other way in).
 */
async function createDevices(place: { api: ApiClient; siteId: string }, kind: 'hardware' | 'exhibit', count: number): Promise<FleetBoard[]> {
  const { api, siteId } = place;
  const width = String(count).length;
  return mapLimit(Array.from({ length: count }, (_, i) => i), 8, async (i) => {
    const name = `${kind === 'hardware' ? 'Board' : 'Exhibit'} ${String(i + 1).padStart(width, '0')}`;
    if (kind === 'hardware') {
      const hardware = await api<{ id: string }>('POST', '/hardware-mgmt/hardware', { name, siteId });
      const token = await api<{ token: string }>('POST', '/auth/hardware', { name: 'saturation', hardwareId: hardware.id });
      return { id: hardware.id, token: token.token };
    }
    const exhibit = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name, siteId });
    const token = await api<{ token: string }>('POST', '/auth/exhibit', { name: 'saturation', exhibitId: exhibit.id });
    return { id: exhibit.id, token: token.token };
  });
}

/** What the receiver saw of one stream over one round, and every process's CPU over its measured window. */
type Measured = {
  perSecond: number;
  received: number;
  seconds: number;
  /** Messages the load sent over the whole round, warm-up included. */
  sent: number;
  /** Seconds from the start of the load until it stopped. */
  sendingS: number;
  /** Messages sent a second in the measured window, when the load says (exhibits); NaN otherwise. */
  sentPerSecond: number;
  /** Seconds the warm-up went on past `--warmup` until the load was paced by the server (exhibits). */
  extraWarmupS: number;
  /** Sent but not received (nor skipped over) by the end of the drain. */
  lost: number;
  reordered: number;
  /** Sequence numbers the receiver never saw because a later value came first: merged by the server's slow-console outbox. */
  skipped: number;
  /** Sent but not yet received when the load stopped (queued in socket buffers or the server), and how long the drain took (s). */
  backlog: number;
  drainS: number;
  /** CPU seconds of the server (Plinth, PGlite included) or the bare broker in the measured window. */
  serverCpuSeconds: number;
  /** Share of one core of each process in the measured window. */
  cpu: { label: string; percent: number }[];
};

/** One side's figures over one round of the boards. */
type Round = Measured & {
  side: Side;
  /** Messages acknowledged (PUBACK) a second over the whole round, warm-up included. */
  acknowledgedPerSecond: number;
  unacknowledged: number;
};

type Processes = { server: BenchServer; broker: ChildProcess; loads: Load[]; receiver: Receiver };

async function countOf(receiver: Receiver, side: Stream) {
  const answer = receiver.next((m): m is Extract<FromReceiver, { type: 'count' }> => m.type === 'count' && m.side === side, 10_000);
  receiver.send({ type: 'count', side });
  return answer;
}

/** A server process: its label in the output and its pid. */
type Measurable = { label: string; pid: number };

/** Waits (at most a minute) until every server is nearly idle. */
async function settle(servers: Measurable[]): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const windows = servers.map((server) => startCpuWindow(() => [server.pid]));
    await sleep(500);
    const busy = windows.map((w) => w.stop().percentOfOneCore);
    if (busy.every((percent) => percent < QUIET_PERCENT)) return;
    if (i === 119) log(`  still busy after a minute (${servers.map((server, n) => `${server.label} ${busy[n]!.toFixed(0)}%`).join(', ')} of a core): measuring anyway`);
  }
}

/**
 * One round of one stream: once the servers are idle, `start` sets the load going; the
 * receiver's count is taken after the warm-up and again `seconds` later, with every process's CPU
 * over the same window; then `stop` stops the load (answering what it sent), the receiver drains,
 * and what was sent is compared with what arrived.
 */
async function measureRound<T extends { sent: number }>(how: {
  stream: Stream;
  receiver: Receiver;
  server: Measurable;
  /** Servers that must be idle before the round. */
  quiet: Measurable[];
  dbPids: number[];
  loads: ChildProcess[];
  start: () => void;
  stop: () => Promise<T[]>;
  /**
   * The drain's limit grows by the time the backlog at stop takes at the measured rate: exhibits'
   * statuses have no acknowledgement, so the kernel's socket buffers hold as many as they take.
   */
  drainForBacklog?: boolean;
  /**
   * What the load has sent since `start`: the warm-up then lasts until the load is paced (it
   * sends at most PACED_RATIO times what arrives), and the measured window's send rate is given.
   */
  sentSoFar?: () => Promise<number>;
  options: Options;
}): Promise<{ measured: Measured; stopped: T[] }> {
  const { stream, receiver, loads, options, sentSoFar } = how;
  await settle(how.quiet);
  const start = await countOf(receiver, stream);
  const startedAt = performance.now();
  how.start();
  await sleep(options.warmupS * 1000);
  const warmedAt = performance.now();
  for (let paced = !sentSoFar; !paced && performance.now() - warmedAt < WARMUP_MAX_MS; ) {
    const [sent0, count0] = [await sentSoFar!(), await countOf(receiver, stream)];
    await sleep(1000);
    const [sent1, count1] = [await sentSoFar!(), await countOf(receiver, stream)];
    paced = sent1 - sent0 <= PACED_RATIO * (count1.received - count0.received);
  }
  const extraWarmupS = (performance.now() - warmedAt) / 1000;
  const windows = [
    { label: how.server.label, cpu: startCpuWindow(() => [how.server.pid]) },
    ...(how.dbPids.length ? [{ label: 'PostgreSQL backends', cpu: startCpuWindow(() => how.dbPids) }] : []),
    ...loads.map((load, i) => ({ label: `load ${i + 1}`, cpu: startCpuWindow(() => [load.pid!]) })),
    { label: 'receiver', cpu: startCpuWindow(() => [receiver.child.pid!]) },
    { label: 'bench', cpu: startCpuWindow(() => [process.pid]) },
  ];
  const sentFrom = sentSoFar ? await sentSoFar() : Number.NaN;
  const from = await countOf(receiver, stream);
  await sleep(options.seconds * 1000);
  const to = await countOf(receiver, stream);
  const sentTo = sentSoFar ? await sentSoFar() : Number.NaN;
  const cpu = windows.map((w) => ({ label: w.label, ...w.cpu.stop() }));
  const stopped = await how.stop();
  const sendingS = (performance.now() - startedAt) / 1000;
  const sent = stopped.reduce((n, t) => n + t.sent, 0);
  // Drain: wait until everything sent has arrived (or was skipped over), nothing more arrives for 2 s, or DRAIN_MS passed.
  const seen = (count: Extract<FromReceiver, { type: 'count' }>) => count.received - start.received + (count.skipped - start.skipped);
  const received = to.received - from.received;
  const seconds = (to.at - from.at) / 1000;
  let end = await countOf(receiver, stream);
  const backlog = Math.max(0, sent - seen(end));
  const drainStarted = performance.now();
  const backlogMs = how.drainForBacklog && received > 0 ? (backlog / (received / seconds)) * 1000 : 0;
  if (backlogMs > DRAIN_MS) log(`  draining ${backlog} queued (about ${(backlogMs / 1000).toFixed(0)} s at the measured rate)`);
  const drainUntil = drainStarted + DRAIN_MS + backlogMs;
  for (let quiet = 0; seen(end) < sent && quiet < 20 && performance.now() < drainUntil; ) {
    await sleep(100);
    const now = await countOf(receiver, stream);
    quiet = now.received === end.received ? quiet + 1 : 0;
    end = now;
  }
  const measured: Measured = {
    perSecond: received / seconds,
    received,
    seconds,
    sent,
    sendingS,
    sentPerSecond: (sentTo - sentFrom) / seconds,
    extraWarmupS,
    lost: Math.max(0, sent - seen(end)),
    reordered: end.reordered - start.reordered,
    skipped: end.skipped - start.skipped,
    backlog,
    drainS: (performance.now() - drainStarted) / 1000,
    serverCpuSeconds: cpu[0]!.cpuSeconds,
    cpu: cpu.map((c) => ({ label: c.label, percent: c.percentOfOneCore })),
  };
  return { measured, stopped };
}

/** One round of one side of the boards: every connection fills its window of QoS 1 messages in flight. */
async function runRound(side: Side, window: number, processes: Processes, options: Options): Promise<Round> {
  const { server, broker, loads, receiver } = processes;
  const dbPids = side === 'plinth' ? await databasePids(server).catch(() => []) : [];
  const plinth = { label: 'Plinth server', pid: server.pid };
  const aedes = { label: 'bare aedes', pid: broker.pid! };
  const { measured, stopped } = await measureRound({
    stream: side,
    receiver,
    server: side === 'plinth' ? plinth : aedes,
    quiet: [plinth, { ...aedes, label: 'aedes' }],
    dbPids,
    loads: loads.map((load) => load.child),
    start: () => {
      for (const load of loads) load.send({ type: 'start', side, window });
    },
    stop: () => askAll(loads, (): ToLoad => ({ type: 'stop', side }), (m: FromLoad): m is Extract<FromLoad, { type: 'stopped' }> => m.type === 'stopped' && m.side === side, 30_000),
    options,
  });
  const unacknowledged = stopped.reduce((n, t) => n + t.unacknowledged, 0);
  return { ...measured, side, acknowledgedPerSecond: (measured.sent - unacknowledged) / measured.sendingS, unacknowledged };
}

/** Opens one connection per board on `side`, spread over the load processes. */
async function connectSide(side: Side, url: string, boards: FleetBoard[], loads: Load[]): Promise<void> {
  const connected = await askAll(
    loads,
    (i): ToLoad => ({ type: 'connect', side, url, boards: share(boards, i, loads.length) }),
    (m: FromLoad): m is Extract<FromLoad, { type: 'connected' }> => m.type === 'connected' && m.side === side,
    300_000,
  );
  throwIfFailed(connected, boards.length, `${side} connections`);
}

/** The `i`-th of `of` load processes' share of the connections: every `of`-th, from the `i`-th. */
const share = <T>(items: T[], i: number, of: number) => items.filter((_, n) => n % of === i);

/** Throws naming the errors when any load process failed to open some of its connections. */
function throwIfFailed(connected: { failed: number; errors: string[] }[], total: number, what: string): void {
  const failed = connected.reduce((n, c) => n + c.failed, 0);
  if (failed) throw new Error(`${failed} of ${total} ${what} failed: ${[...new Set(connected.flatMap((c) => c.errors))].join('; ')}`);
}

async function disconnectSide(side: Side, loads: Load[]): Promise<void> {
  await askAll(loads, (): ToLoad => ({ type: 'disconnect', side }), (m: FromLoad): m is Extract<FromLoad, { type: 'disconnected' }> => m.type === 'disconnected' && m.side === side, 60_000);
}

type ShapeResult = { database: BenchDatabase; shape: Shape; rounds: Round[] };

async function runShape(shape: Shape, boards: FleetBoard[], plinthUrl: string, base: Omit<Processes, 'broker'>, options: Options): Promise<Round[]> {
  const used = boards.slice(0, shape.boards);
  const broker = await startBroker();
  const processes: Processes = { ...base, broker: broker.child };
  const urls: Record<Side, string> = { plinth: plinthUrl, broker: broker.url };
  const rounds: Round[] = [];
  try {
    await openReceiver(processes.receiver, 'broker', { type: 'open-subscriber', url: broker.url });
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
        const lossy = round.lost || round.reordered || round.skipped ? `  LOST ${round.lost} REORDERED ${round.reordered} SKIPPED ${round.skipped}` : '';
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

type ExhibitRound = Measured & {
  /** Sockets the server closed during the round, and `error` answers it sent. */
  closed: number;
  refused: number;
  errors: string[];
};

/**
 * One round of the exhibits: every SDK socket writes statuses whenever fewer than `window` of
 * them wait in it (TCP backpressure), so the server's reading sets the pace.
 */
async function runExhibitRound(shape: Shape, server: BenchServer, loads: ExhibitLoad[], receiver: Receiver, options: Options): Promise<ExhibitRound> {
  const { window } = shape;
  const unanswered = unansweredOf(shape, options);
  const dbPids = await databasePids(server).catch(() => []);
  const plinth = { label: 'Plinth server', pid: server.pid };
  const { measured, stopped } = await measureRound({
    stream: 'exhibit',
    receiver,
    server: plinth,
    quiet: [plinth],
    dbPids,
    loads: loads.map((load) => load.child),
    start: () => {
      for (const load of loads) load.send({ type: 'start', window, unanswered });
    },
    stop: () => askAll(loads, (): ToExhibitLoad => ({ type: 'stop' }), (m: FromExhibitLoad): m is Extract<FromExhibitLoad, { type: 'stopped' }> => m.type === 'stopped', 30_000),
    drainForBacklog: true,
    sentSoFar: async () => {
      const answers = await askAll(loads, (): ToExhibitLoad => ({ type: 'sent' }), (m: FromExhibitLoad): m is Extract<FromExhibitLoad, { type: 'sent' }> => m.type === 'sent', 10_000);
      return answers.reduce((n, a) => n + a.sent, 0);
    },
    options,
  });
  const sum = (pick: (s: (typeof stopped)[number]) => number) => stopped.reduce((n, s) => n + pick(s), 0);
  return { ...measured, closed: sum((s) => s.closed), refused: sum((s) => s.refused), errors: [...new Set(stopped.flatMap((s) => s.errors))] };
}

type ExhibitResult = { database: BenchDatabase; shape: Shape; rounds: ExhibitRound[] };

/** One exhibit shape: its SDK sockets opened over the exhibit load processes, its rounds, then the sockets closed. */
async function runExhibitShape(shape: Shape, exhibits: LoadExhibit[], server: BenchServer, loads: ExhibitLoad[], receiver: Receiver, options: Options): Promise<ExhibitRound[]> {
  const used = exhibits.slice(0, shape.boards);
  const rounds: ExhibitRound[] = [];
  receiver.send({ type: 'reset', side: 'exhibit' });
  const before = (await countOf(receiver, 'exhibit')).received;
  const started = performance.now();
  try {
    const connected = await askAll(
      loads,
      (i): ToExhibitLoad => ({ type: 'connect', url: server.url, exhibits: share(used, i, loads.length) }),
      (m: FromExhibitLoad): m is Extract<FromExhibitLoad, { type: 'connected' }> => m.type === 'connected',
      300_000,
    );
    throwIfFailed(connected, used.length, 'exhibit sockets');
    const connectedS = (performance.now() - started) / 1000;
    const firstSeenS = await firstStatuses(receiver, before + used.length);
    log(
      `exhibits ${shape.boards} × ${shape.window}: ${used.length} SDK sockets in ${connectedS.toFixed(1)} s, the console had each one's first status ${firstSeenS.toFixed(1)} s later ` +
        `(each writes while under ${shape.window} statuses = ${shape.window * STATUS_FRAME_BYTES} bytes buffered` +
        `${options.exhibitInFlight ? ` and under ${unansweredOf(shape, options)} beyond its last pong` : ', no other bound'})`,
    );
    for (let r = 1; r <= options.rounds; r++) {
      const round = await runExhibitRound(shape, server, loads, receiver, options);
      rounds.push(round);
      log(
        `  round ${r} exhibits ${round.perSecond.toFixed(0).padStart(6)} /s (sent ${round.sentPerSecond.toFixed(0)} /s)  ${cpuLine(round)}; ` +
          `warm-up +${round.extraWarmupS.toFixed(0)} s until paced, ${round.backlog} queued at stop (socket buffers), drained in ${round.drainS.toFixed(1)} s${exhibitTrouble(round)}`,
      );
    }
  } finally {
    await askAll(loads, (): ToExhibitLoad => ({ type: 'disconnect' }), (m: FromExhibitLoad): m is Extract<FromExhibitLoad, { type: 'disconnected' }> => m.type === 'disconnected', 60_000);
  }
  return rounds;
}

/**
 * Statuses one socket of the shape may have beyond its last `pong`: its share of
 * `--exhibit-in-flight`, at least its window; 0 (no bound) when that is 0.
 */
const unansweredOf = (shape: Shape, options: Options) => (options.exhibitInFlight ? Math.max(shape.window, Math.ceil(options.exhibitInFlight / shape.boards)) : 0);

/**
 * Waits (at most a minute) until the receiver's count reaches `until`: the console has each
 * exhibit's first status, sent alone once its socket was synced. The server loads what the
 * console's user may see of an exhibit on its first event, and later events queue behind that
 * load: under the full stream on PostgreSQL (unbounded, --exhibit-in-flight 0) the console then
 * received nothing for 20 s and more, so the load is done before measuring. Answers how long it took (s).
 */
async function firstStatuses(receiver: Receiver, until: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 600; i++) {
    if ((await countOf(receiver, 'exhibit')).received >= until) break;
    if (i === 599) log(`  the console did not have every exhibit's first status within a minute: measuring anyway`);
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
}

/** What went wrong in an exhibit round, for its line; empty when nothing did. */
function exhibitTrouble(round: ExhibitRound): string {
  const parts = [
    round.lost && `LOST ${round.lost}`,
    round.reordered && `REORDERED ${round.reordered}`,
    round.skipped && `SKIPPED ${round.skipped} (merged by the slow-console outbox)`,
    round.closed && `${round.closed} sockets CLOSED`,
    round.refused && `${round.refused} REFUSED`,
    round.sentPerSecond > PACED_RATIO * round.perSecond && `FILLING: the load sent ${round.sentPerSecond.toFixed(0)} /s, the socket buffers were still filling`,
  ].filter(Boolean);
  return parts.length ? `  ${parts.join(', ')}${round.errors.length ? ` (${round.errors.join('; ')})` : ''}` : '';
}

function cpuLine(round: Measured): string {
  return round.cpu.map((c) => `${c.label} ${c.percent.toFixed(0)}%`).join(', ');
}

/** The processes at or above LIMIT_PERCENT of a core that are not the server measured. */
function limits(round: Measured): string[] {
  return round.cpu.slice(1).filter((c) => c.percent >= LIMIT_PERCENT && c.label !== 'PostgreSQL backends').map((c) => `${c.label} at ${c.percent.toFixed(0)}%`);
}

const bestOf = <T extends Measured>(rounds: T[]) => rounds.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const best = (rounds: Round[], side: Side) => bestOf(rounds.filter((r) => r.side === side));
/** Server CPU µs a message received over the measured window. */
const cost = (r: Measured) => (r.serverCpuSeconds / r.received) * 1e6;

type Figure = { label: string; value: string };

const queueing = (r: Round) => r.perSecond < r.acknowledgedPerSecond * BACKLOG_SHARE;

/** Loss and order of one side over all its rounds of a shape. */
function lossLine(rounds: Round[], side: Side): string {
  const mine = rounds.filter((r) => r.side === side);
  const sum = (pick: (r: Round) => number) => mine.reduce((n, r) => n + pick(r), 0);
  const unacknowledged = sum((r) => r.unacknowledged);
  const skipped = sum((r) => r.skipped);
  return `${sum((r) => r.lost)} lost, ${sum((r) => r.reordered)} reordered${skipped ? `, ${skipped} skipped (merged)` : ''} of ${sum((r) => r.sent)}${unacknowledged ? ` (${unacknowledged} never acknowledged)` : ''}`;
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
  if (results.length) console.log('\nSaturation: Plinth (console on /ws) against bare aedes (MQTT subscriber), best round of each side');
  for (const { database, shape, rounds } of results) {
    const plinth = best(rounds, 'plinth');
    const broker = best(rounds, 'broker');
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

/** The exhibits' part of the summary, printed after the boards': the best round of each shape against the issue's target. */
function summarizeExhibits(results: ExhibitResult[]): Figure[] {
  const figures: Figure[] = [];
  if (results.length) console.log(`\nExhibit statuses: SDK sockets to one console on /ws (exhibit.statusChanged), best round; target ≥ ${EXHIBIT_TARGET_PER_SECOND.toLocaleString('en')} a second`);
  for (const { database, shape, rounds } of results) {
    const top = bestOf(rounds);
    const sum = (pick: (r: ExhibitRound) => number) => rounds.reduce((n, r) => n + pick(r), 0);
    const name = `${database} exhibits ${shape.boards} × ${shape.window}`;
    const target = `≥ ${EXHIBIT_TARGET_PER_SECOND.toLocaleString('en')} a second: ${top.perSecond >= EXHIBIT_TARGET_PER_SECOND ? 'ok' : 'MISSED'}`;
    const server = `${top.cpu[0]!.percent.toFixed(0)}% of a core${top.cpu[1]?.label === 'PostgreSQL backends' ? ` (+${top.cpu[1].percent.toFixed(0)}% PostgreSQL)` : ''}`;
    const loss =
      `${sum((r) => r.lost)} lost, ${sum((r) => r.reordered)} reordered, ${sum((r) => r.skipped)} skipped (merged by the slow-console outbox) of ${sum((r) => r.sent)} sent` +
      `; ${sum((r) => r.closed)} sockets closed, ${sum((r) => r.refused)} refused`;
    console.log(`  ${name}`);
    console.log(`    Plinth      ${top.perSecond.toFixed(0).padStart(7)} /s  ${cost(top).toFixed(1)} µs server CPU a status, server ${server}  (${cpuLine(top)})`);
    console.log(`    target      ${target}   rounds: ${rounds.map((r) => r.perSecond.toFixed(0)).join(', ')}`);
    console.log(`    loss/order  ${loss} (lost: not received ${DRAIN_MS / 1000} s, plus the time the backlog at stop takes at the measured rate, after the load stopped)`);
    const limit = limits(top);
    if (limit.length) console.log(`    LIMIT: the round was capped by the bench, not the server: ${limit.join(', ')}`);
    if (top.sentPerSecond > PACED_RATIO * top.perSecond) console.log(`    FILLING: the load sent ${top.sentPerSecond.toFixed(0)} /s in the measured window: the socket buffers were still filling`);
    figures.push(
      { label: `${name}: statuses a second`, value: `${top.perSecond.toFixed(0)} /s (${target})` },
      { label: `${name}: server CPU a status`, value: `${cost(top).toFixed(1)} µs (${server})` },
      { label: `${name}: loss / order`, value: loss },
    );
  }
  return figures;
}

/** The Plinth server of the database being measured, for an interrupted run to stop. */
let runningServer: BenchServer | null = null;

/** The most connections of any of these shapes (0 for none). */
const mostOf = (shapes: Shape[]) => Math.max(0, ...shapes.map((s) => s.boards));

type DatabaseResults = { boards: ShapeResult[]; exhibits: ExhibitResult[] };

async function runDatabase(database: BenchDatabase, loads: Load[], exhibitLoads: ExhibitLoad[], receiver: Receiver, options: Options): Promise<DatabaseResults> {
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  runningServer = server;
  try {
    const started = performance.now();
    const place = await createSite(server);
    const boards = await createDevices(place, 'hardware', mostOf(options.shapes));
    const exhibits = await createDevices(place, 'exhibit', mostOf(options.exhibitShapes));
    log(`${database}: created ${boards.length} boards and ${exhibits.length} exhibits and their tokens through the REST API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const results: DatabaseResults = { boards: [], exhibits: [] };
    if (boards.length) {
      await openReceiver(receiver, 'plinth', { type: 'open-console', url: server.url, cookie: server.adminCookie, hardwareIds: boards.map((b) => b.id) });
      const config = await place.api<{ mqttPort: number }>('GET', '/config');
      for (const shape of options.shapes) {
        results.boards.push({ database, shape, rounds: await runShape(shape, boards, `mqtt://127.0.0.1:${config.mqttPort}`, { server, loads, receiver }, options) });
      }
      receiver.send({ type: 'close-console' });
    }
    if (exhibits.length) {
      await openReceiver(receiver, 'exhibit', { type: 'open-exhibit-console', url: server.url, cookie: server.adminCookie, exhibitIds: exhibits.map((e) => e.id) });
      for (const shape of options.exhibitShapes) {
        results.exhibits.push({ database, shape, rounds: await runExhibitShape(shape, exhibits, server, exhibitLoads, receiver, options) });
      }
      receiver.send({ type: 'close-exhibit-console' });
    }
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
  if (!options.shapes.length && !options.exhibitShapes.length) throw new Error('--shapes none and --exhibit-shapes none leave nothing to measure');
  // Each board holds two sockets in the load processes (one per side) and one in each server; each exhibit one in a load process and one in the server.
  const most = Math.max(mostOf(options.shapes) * 2, mostOf(options.exhibitShapes));
  const limitsNow = openFileLimits();
  if (limitsNow && limitsNow.soft < most + 500) {
    throw new Error(`the open-file limit is ${limitsNow.soft}; run \`ulimit -n ${most * 2}\` first (npm run bench raises it to the hard limit, ${limitsNow.hard})`);
  }
  const shapes = (list: Shape[]) => (list.length ? list.map((s) => `${s.boards} × ${s.window}`).join(', ') : 'none');
  log(
    `shapes ${shapes(options.shapes)}; exhibit shapes ${shapes(options.exhibitShapes)}; ${options.rounds} round(s) a side, ${options.warmupS} s warm-up + ${options.seconds} s measured; ` +
      `${options.loads} load process(es) per part; database ${options.databases.join(' and ')}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const loadsOf = <In, Out>(file: string, shapes: Shape[]) => (shapes.length ? Array.from({ length: options.loads }, () => forkHelper<In, Out>(file)) : []);
  const loads = loadsOf<ToLoad, FromLoad>('saturation-load.ts', options.shapes);
  const exhibitLoads = loadsOf<ToExhibitLoad, FromExhibitLoad>('saturation-exhibit-load.ts', options.exhibitShapes);
  const receiver = forkHelper<ToReceiver, FromReceiver>('saturation-receiver.ts');
  const children = [...loads.map((l) => l.child), ...exhibitLoads.map((l) => l.child), receiver.child];
  const interrupted = () => {
    log('interrupted: stopping');
    runningBroker?.kill('SIGKILL');
    void Promise.all([stopLoadProcesses(children, { type: 'close' }, 5000), runningServer?.stop()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const results: DatabaseResults = { boards: [], exhibits: [] };
    for (const database of options.databases) {
      const { boards, exhibits } = await runDatabase(database, loads, exhibitLoads, receiver, options);
      results.boards.push(...boards);
      results.exhibits.push(...exhibits);
    }
    const figures = [...summarize(results.boards), ...summarizeExhibits(results.exhibits)];
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
