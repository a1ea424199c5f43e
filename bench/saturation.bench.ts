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
// issue's 20,000 a second.
// `--broker mosquitto` (or BENCH_BROKER; `both` runs the embedded part first, `embedded` is the
// default) measures the boards' part on Mosquitto instead, on PostgreSQL only: Plinth as one
// node (MQTT_URL to a Mosquitto with dynamic security that the server provisions the boards'
// tokens into; no Redis), as two nodes of one deployment (one database, a second such Mosquitto
// read through $share subscriptions, the Redis hub of BENCH_REDIS_URL or the local one; the
// console on node 1, which sees node 2's messages through Redis), and a fresh bare Mosquitto per
// shape (anonymous, no plugin, the same queue limit), in alternating rounds. It reports both
// ratios to bare Mosquitto (issue 22: one node at least 40%), two nodes / one node, µs a message
// and every process's CPU (nodes, Mosquitto, Redis, PostgreSQL, loads, receiver). Exhibits'
// statuses go through no broker: they are measured in the embedded part only.
// Against Mosquitto the boards are not paced by Plinth: Mosquitto acknowledges each message at
// once and drops what overflows a subscriber's queue (counted as lost or skipped). So `--rate N`
// (BENCH_RATE, 0 = no cap, the default) offers Plinth's sides at most N prop changes a second in
// all (the bare broker stays uncapped), to find the rate a side carries without loss; and
// `--mosquitto-config 'line; line'` (BENCH_MOSQUITTO_CONFIG) adds lines to every Mosquitto's
// configuration, to see what a setting changes. Run through `npm run bench` (see
// docs/performance.md, "Saturation: Plinth against the bare broker"):
//   npm run bench -- saturation
//   npm run bench -- saturation --shapes 200x10 --database pglite --quick
//   npm run bench -- saturation --shapes none --exhibit-shapes 20x10 --database pglite --quick
//   npm run bench -- saturation --broker mosquitto
//   npm run bench -- saturation --broker mosquitto --shapes 200x10 --quick
//   npm run bench -- saturation --broker mosquitto --shapes 200x10 --rate 25000
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FleetBoard } from './hardware-protocol.js';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { databasePids, stopLoadProcesses } from './lib/load-processes.js';
import { isFromSource, readFlags, wholeNumber, wholeNumberOrZero, positiveNumber, readDatabases } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { startBenchMosquitto } from './lib/mosquitto-broker.js';
import { pidsByName } from './lib/pids-by-name.js';
import { openFileLimits, startCpuWindow } from './lib/proc-stats.js';
import { mapLimit } from './lib/stats.js';
import { STATUS_FRAME_BYTES, type FromExhibitLoad, type FromLoad, type FromReceiver, type LoadExhibit, type PlinthSide, type Side, type Stream, type ToExhibitLoad, type ToLoad, type ToReceiver } from './saturation-protocol.js';

/**
 * A load shape: how many boards (one connection each) and how many messages each keeps in flight;
 * for exhibits, how many exhibits (one SDK socket each) and how many statuses each keeps buffered.
 */
type Shape = { boards: number; window: number };

/** Which broker the boards' part runs on: Plinth's embedded aedes, or Mosquitto (MQTT_URL). */
type BrokerPart = 'embedded' | 'mosquitto';

type Options = {
  brokers: BrokerPart[];
  /** Lines added to every Mosquitto's configuration (`;`-separated in the flag), to see what a setting changes; none by default. */
  mosquittoConfig: string[];
  /** Prop changes a second all load processes together offer each Plinth side (0: no cap, the window alone); the bare broker is never capped. */
  rate: number;
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

/** `--broker embedded|mosquitto|both` (or BENCH_BROKER): embedded by default; both runs the embedded part first. */
function readBrokers(value: string | boolean | undefined): BrokerPart[] {
  const raw = typeof value === 'string' ? value : 'embedded';
  if (raw === 'both') return ['embedded', 'mosquitto'];
  if (raw === 'embedded' || raw === 'mosquitto') return [raw];
  throw new Error(`--broker must be embedded, mosquitto or both (got ${raw})`);
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
    broker: { type: 'string' },
    'mosquitto-config': { type: 'string' },
    rate: { type: 'string' },
    quick: { type: 'boolean' },
  });
  const env = process.env;
  const quick = values.quick === true || env.BENCH_QUICK === '1';
  const brokers = readBrokers(values.broker ?? env.BENCH_BROKER);
  const mosquittoConfig = String(values['mosquitto-config'] ?? env.BENCH_MOSQUITTO_CONFIG ?? '');
  return {
    brokers,
    mosquittoConfig: mosquittoConfig.split(';').map((line) => line.trim()).filter(Boolean),
    rate: wholeNumberOrZero(values.rate, env.BENCH_RATE, 0, 'rate'),
    shapes: parseShapes(String(values.shapes ?? env.BENCH_SHAPES ?? '20x100,200x10,2000x1'), 'shapes'),
    // Exhibits' statuses go through no broker: they are measured in the embedded part only.
    exhibitShapes: brokers.includes('embedded') ? parseShapes(String(values['exhibit-shapes'] ?? env.BENCH_EXHIBIT_SHAPES ?? '20x100,200x10,2000x1'), 'exhibit-shapes') : [],
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

/** The servers and brokers running now, each by its `stop`, for an interrupted run to stop. */
const running = new Set<() => Promise<unknown>>();

/** `thing` with a `stop` that an interrupted run calls too (once stopped, it is no longer running). */
function tracked<T extends { stop: () => Promise<unknown> }>(thing: T): T {
  const stop = () => {
    running.delete(stop);
    return thing.stop();
  };
  running.add(stop);
  return { ...thing, stop };
}

/** A bare broker of one shape: its name in the output, its address, its pid, and `stop`, which answers how it ended. */
type BareBroker = { name: string; url: string; pid: number; stop: () => Promise<string> };

/**
 * The bare aedes broker (bench/hardware-aedes-broker.ts) in its own process. A fresh one per
 * shape: what one shape leaves queued in it (see docs/performance.md) must not run during the next.
 */
async function startAedes(): Promise<BareBroker> {
  const child = fork(path.join(ROOT, 'bench/hardware-aedes-broker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)));
  const port = await Promise.race([
    new Promise<number>((resolve) => child.once('message', (message: { port: number }) => resolve(message.port))),
    exited.then((how) => Promise.reject(new Error(`the aedes broker ended (${how})`))),
  ]);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.send({ type: 'close' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const how = await exited;
    clearTimeout(timer);
    return how;
  };
  return tracked({ name: 'aedes', url: `mqtt://127.0.0.1:${port}`, pid: child.pid!, stop });
}

/** A fresh bare Mosquitto (anonymous clients, no plugin; `extra` configuration lines) for one shape, as aedes is. */
async function startBareMosquitto(extra: string[]): Promise<BareBroker> {
  const mosquitto = await startBenchMosquitto('bare', extra);
  return tracked({ name: 'Mosquitto', url: mosquitto.url, pid: mosquitto.pid, stop: mosquitto.stop });
}

/** Has the receiver open a console socket for `side` on `server`, subscribed to every board. */
function openConsole(receiver: Receiver, side: PlinthSide, server: BenchServer, boards: FleetBoard[]): Promise<void> {
  return openReceiver(receiver, side, { type: 'open-console', side, url: server.url, cookie: server.adminCookie, hardwareIds: boards.map((b) => b.id) });
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
  /** Times the console was told its server lost its link to Redis (the hub of several nodes). */
  linkLost: number;
  /** Sent but not yet received when the load stopped (queued in socket buffers or the server), and how long the drain took (s). */
  backlog: number;
  drainS: number;
  /** CPU seconds of the server (Plinth, PGlite included; both nodes of a cluster) or the bare broker in the measured window. */
  serverCpuSeconds: number;
  /** Share of one core (and CPU seconds) of each process in the measured window, the servers first. */
  cpu: { label: string; percent: number; cpuSeconds: number; role: CpuRole }[];
};

/**
 * What a process is to a round: a `server` the rate costs (a Plinth node or the bare broker),
 * `support` serving it (PostgreSQL backends, the Mosquitto behind Plinth, Redis), or the `bench`'s
 * own (loads, receiver, the benchmark), which must stay clear of a full core.
 */
type CpuRole = 'server' | 'support' | 'bench';

/** One side's figures over one round of the boards. */
type Round = Measured & {
  side: Side;
  /** Messages acknowledged (PUBACK) a second over the whole round, warm-up included. */
  acknowledgedPerSecond: number;
  unacknowledged: number;
};

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
  /** The processes the rate costs: one Plinth node, both of a cluster, or the bare broker. */
  servers: Measurable[];
  /** Processes serving them, measured too: the Mosquitto behind Plinth, Redis. */
  support?: Measurable[];
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
  const measure = (label: string, role: CpuRole, pids: number[]) => ({ label, role, cpu: startCpuWindow(() => pids) });
  const windows = [
    ...how.servers.map((server) => measure(server.label, 'server', [server.pid])),
    ...(how.dbPids.length ? [measure('PostgreSQL backends', 'support', how.dbPids)] : []),
    ...(how.support ?? []).map((helper) => measure(helper.label, 'support', [helper.pid])),
    ...loads.map((load, i) => measure(`load ${i + 1}`, 'bench', [load.pid!])),
    measure('receiver', 'bench', [receiver.child.pid!]),
    measure('bench', 'bench', [process.pid]),
  ];
  const sentFrom = sentSoFar ? await sentSoFar() : Number.NaN;
  const from = await countOf(receiver, stream);
  await sleep(options.seconds * 1000);
  const to = await countOf(receiver, stream);
  const sentTo = sentSoFar ? await sentSoFar() : Number.NaN;
  const cpu = windows.map((w) => ({ label: w.label, role: w.role, ...w.cpu.stop() }));
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
    linkLost: end.linkLost - start.linkLost,
    backlog,
    drainS: (performance.now() - drainStarted) / 1000,
    serverCpuSeconds: cpu.filter((c) => c.role === 'server').reduce((n, c) => n + c.cpuSeconds, 0),
    cpu: cpu.map((c) => ({ label: c.label, percent: c.percentOfOneCore, cpuSeconds: c.cpuSeconds, role: c.role })),
  };
  return { measured, stopped };
}

/** One side of a shape's rounds: where its boards connect, and the processes its rate costs. */
type SideTarget = {
  side: Side;
  /** The broker its boards connect to (as themselves: hardware id and token). */
  url: string;
  boards: FleetBoard[];
  /** The processes the rate costs: the Plinth node or nodes, or the bare broker. */
  servers: Measurable[];
  /** Processes serving them, measured too (the Mosquitto behind Plinth, Redis). */
  support: Measurable[];
  /** The PostgreSQL backends serving it now (none on PGlite or for the bare broker). */
  dbPids: () => Promise<number[]>;
};

/** The load processes and the receiver. */
type Helpers = { loads: Load[]; receiver: Receiver };

/** One round of one side of the boards: every connection fills its window of QoS 1 messages in flight. */
async function runRound(target: SideTarget, window: number, quiet: Measurable[], helpers: Helpers, options: Options): Promise<Round> {
  const { side } = target;
  const { loads, receiver } = helpers;
  const { measured, stopped } = await measureRound({
    stream: side,
    receiver,
    servers: target.servers,
    support: target.support,
    quiet,
    dbPids: await target.dbPids().catch(() => []),
    loads: loads.map((load) => load.child),
    start: () => {
      const rate = side === 'broker' ? 0 : options.rate / loads.length;
      for (const load of loads) load.send({ type: 'start', side, window, rate });
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

/**
 * One shape: a fresh bare broker (`startBare`), every side's connections opened, then rounds
 * alternating over the Plinth sides and the bare broker (the broker last), each side's boards
 * the first `shape.boards` of its own; the bare broker's connect as the first Plinth side's boards.
 */
async function runShape(shape: Shape, plinthSides: SideTarget[], startBare: () => Promise<BareBroker>, helpers: Helpers, options: Options): Promise<Round[]> {
  const bare = await startBare();
  const broker: SideTarget = { side: 'broker', url: bare.url, boards: plinthSides[0]!.boards, servers: [{ label: `bare ${bare.name}`, pid: bare.pid }], support: [], dbPids: async () => [] };
  const sides = [...plinthSides, broker];
  const quiet = sides.flatMap((target) => target.servers);
  const rounds: Round[] = [];
  try {
    await openReceiver(helpers.receiver, 'broker', { type: 'open-subscriber', url: bare.url });
    const started = performance.now();
    for (const target of sides) {
      helpers.receiver.send({ type: 'reset', side: target.side });
      await connectSide(target.side, target.url, target.boards.slice(0, shape.boards), helpers.loads);
    }
    log(`${shape.boards} × ${shape.window}: ${shape.boards} connections to each side in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (let r = 1; r <= options.rounds; r++) {
      for (const target of sides) {
        const round = await runRound(target, shape.window, quiet, helpers, options);
        rounds.push(round);
        const lossy = round.lost || round.reordered || round.skipped ? `  LOST ${round.lost} REORDERED ${round.reordered} SKIPPED ${round.skipped}` : '';
        const linkLost = round.linkLost ? `  REDIS LINK LOST ${round.linkLost}×` : '';
        log(`  round ${r} ${round.side.padEnd(6)} ${round.perSecond.toFixed(0).padStart(6)} /s (acknowledged ${round.acknowledgedPerSecond.toFixed(0)} /s)  ${cpuLine(round)}${lossy}${linkLost}`);
      }
    }
  } finally {
    for (const target of sides) await disconnectSide(target.side, helpers.loads);
    helpers.receiver.send({ type: 'close-subscriber' });
    const how = await bare.stop();
    if (how !== 'exit code 0') log(`  bare ${bare.name} ended with ${how} when its connections closed`);
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
    servers: [plinth],
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

/** The bench's own processes (loads, receiver, benchmark) at or above LIMIT_PERCENT of a core. */
function limits(round: Measured): string[] {
  return round.cpu.filter((c) => c.role === 'bench' && c.percent >= LIMIT_PERCENT).map((c) => `${c.label} at ${c.percent.toFixed(0)}%`);
}

const bestOf = <T extends Measured>(rounds: T[]) => rounds.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const best = (rounds: Round[], side: Side) => bestOf(rounds.filter((r) => r.side === side));
/** Server CPU µs a message received over the measured window. */
const cost = (r: Measured) => (r.serverCpuSeconds / r.received) * 1e6;

type Figure = { label: string; value: string };

const queueing = (r: Round) => r.perSecond < r.acknowledgedPerSecond * BACKLOG_SHARE;

/**
 * Loss and order of one side over all its rounds of a shape; `skippedAs` says what skipped numbers
 * are (behind a broker that drops what it cannot queue, they are not only the console's merges).
 */
function lossLine(rounds: Round[], side: Side, skippedAs = 'merged'): string {
  const mine = rounds.filter((r) => r.side === side);
  const sum = (pick: (r: Round) => number) => mine.reduce((n, r) => n + pick(r), 0);
  const unacknowledged = sum((r) => r.unacknowledged);
  const skipped = sum((r) => r.skipped);
  return `${sum((r) => r.lost)} lost, ${sum((r) => r.reordered)} reordered${skipped ? `, ${skipped} skipped (${skippedAs})` : ''} of ${sum((r) => r.sent)}${unacknowledged ? ` (${unacknowledged} never acknowledged)` : ''}`;
}

/**
 * The ratio of the best rounds; when the bare broker (`name`) queued (delivered far less than it
 * acknowledged) its delivered rate is no reference, and Plinth is given against what it
 * acknowledged instead.
 */
function ratioLine(plinth: Round, broker: Round, name: string): string {
  if (!queueing(broker)) return `${((plinth.perSecond / broker.perSecond) * 100).toFixed(1)}%`;
  return `n/a: ${name} queued (delivered ${broker.perSecond.toFixed(0)} of ${broker.acknowledgedPerSecond.toFixed(0)} /s acknowledged); Plinth = ${((plinth.perSecond / broker.acknowledgedPerSecond) * 100).toFixed(1)}% of what ${name} acknowledged`;
}

/** The LIMIT and BACKLOG lines of these best rounds, one side each. */
function printTrouble(rounds: Round[]): void {
  for (const r of rounds) {
    const limit = limits(r);
    if (limit.length) console.log(`    LIMIT: the ${r.side} round was capped by the bench, not the server: ${limit.join(', ')}`);
    if (queueing(r)) console.log(`    BACKLOG: ${r.side} acknowledged ${r.acknowledgedPerSecond.toFixed(0)} /s but delivered ${r.perSecond.toFixed(0)} /s: it queues the rest`);
  }
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
    console.log(`    ratio       ${ratioLine(plinth, broker, 'aedes')}   rounds: ${rounds.map((r) => `${r.side} ${r.perSecond.toFixed(0)}`).join(', ')}`);
    console.log(`    loss/order  Plinth ${lossLine(rounds, 'plinth')}; aedes ${lossLine(rounds, 'broker')} (lost: not received ${DRAIN_MS / 1000} s after the load stopped)`);
    printTrouble([plinth, broker]);
    figures.push(
      { label: `${name}: Plinth / bare aedes`, value: `${plinth.perSecond.toFixed(0)} / ${broker.perSecond.toFixed(0)} /s = ${ratioLine(plinth, broker, 'aedes')}` },
      { label: `${name}: server CPU a message, Plinth / aedes`, value: `${cost(plinth).toFixed(1)} / ${cost(broker).toFixed(1)} µs (${plinth.cpu[0]!.percent.toFixed(0)}% / ${broker.cpu[0]!.percent.toFixed(0)}% of a core)` },
      { label: `${name}: loss / order`, value: `Plinth ${lossLine(rounds, 'plinth')}; aedes ${lossLine(rounds, 'broker')}` },
    );
  }
  return figures;
}

/** Issue 22: one Plinth node on Mosquitto carries at least this share of what bare Mosquitto does. */
const MOSQUITTO_TARGET_SHARE = 0.4;

/** µs of CPU of the process labelled `label` a message received. */
const costOf = (r: Measured, label: string) => ((r.cpu.find((c) => c.label === label)?.cpuSeconds ?? Number.NaN) / r.received) * 1e6;

/** The Mosquitto part of the summary: one node and two nodes against bare Mosquitto, and two nodes against one. */
function summarizeMosquitto(results: ShapeResult[], options: Options): Figure[] {
  const figures: Figure[] = [];
  if (results.length) {
    console.log(
      '\nSaturation on Mosquitto (MQTT_URL), on PostgreSQL: Plinth one node (no Redis) and two nodes (one database, $share subscriptions, the Redis hub; the console on node 1) ' +
        `against bare Mosquitto (anonymous, no plugin; an MQTT subscriber), best round of each side` +
        `${options.rate ? `; Plinth's sides offered at most ${options.rate} a second, the bare broker uncapped` : ''}` +
        `${options.mosquittoConfig.length ? `; every Mosquitto's configuration adds: ${options.mosquittoConfig.join('; ')}` : ''}`,
    );
  }
  for (const { shape, rounds } of results) {
    const [one, two, bare] = (['plinth', 'cluster', 'broker'] as const).map((side) => best(rounds, side)) as [Round, Round, Round];
    const name = `mosquitto ${shape.boards} × ${shape.window}`;
    const share = one.perSecond / bare.perSecond;
    const target = queueing(bare) ? 'n/a' : `≥ ${MOSQUITTO_TARGET_SHARE * 100}%: ${share >= MOSQUITTO_TARGET_SHARE ? 'ok' : 'MISSED'}`;
    const scaling = `${(two.perSecond / one.perSecond).toFixed(2)}×`;
    const plinthCost = (r: Round) => `${cost(r).toFixed(1)} µs Plinth CPU a message (+ ${costOf(r, 'Mosquitto').toFixed(1)} µs Mosquitto)`;
    console.log(`  ${name}`);
    console.log(`    Plinth 1 node    ${one.perSecond.toFixed(0).padStart(7)} /s  ${plinthCost(one)}  (${cpuLine(one)})`);
    console.log(`    Plinth 2 nodes   ${two.perSecond.toFixed(0).padStart(7)} /s  ${plinthCost(two)}  (${cpuLine(two)})`);
    console.log(`    bare Mosquitto   ${bare.perSecond.toFixed(0).padStart(7)} /s  ${cost(bare).toFixed(1)} µs broker CPU a message  (${cpuLine(bare)})`);
    console.log(`    ratios           1 node / bare ${ratioLine(one, bare, 'Mosquitto')} (${target}); 2 nodes / bare ${ratioLine(two, bare, 'Mosquitto')}; 2 nodes / 1 node ${scaling}`);
    console.log(`    rounds           ${rounds.map((r) => `${r.side} ${r.perSecond.toFixed(0)}`).join(', ')}`);
    const skippedAs = 'merged by the console outbox, dropped by Mosquitto, or jumped over by a reordered one';
    const linkLost = rounds.reduce((n, r) => n + r.linkLost, 0);
    const loss =
      `1 node ${lossLine(rounds, 'plinth', skippedAs)}; 2 nodes ${lossLine(rounds, 'cluster', skippedAs)}` +
      `${linkLost ? ` (node 1 lost its Redis link ${linkLost}× and told the console)` : ''}; Mosquitto ${lossLine(rounds, 'broker', skippedAs)}`;
    console.log(`    loss/order       ${loss} (lost: not received ${DRAIN_MS / 1000} s after the load stopped)`);
    printTrouble([one, two, bare]);
    figures.push(
      { label: `${name}: Plinth 1 node / bare Mosquitto`, value: `${one.perSecond.toFixed(0)} / ${bare.perSecond.toFixed(0)} /s = ${ratioLine(one, bare, 'Mosquitto')} (${target})` },
      { label: `${name}: Plinth 2 nodes / bare Mosquitto`, value: `${two.perSecond.toFixed(0)} / ${bare.perSecond.toFixed(0)} /s = ${ratioLine(two, bare, 'Mosquitto')}` },
      { label: `${name}: 2 nodes / 1 node`, value: scaling },
      { label: `${name}: CPU a message, 1 node / 2 nodes / bare`, value: `${plinthCost(one)}; ${plinthCost(two)}; ${cost(bare).toFixed(1)} µs bare Mosquitto` },
      { label: `${name}: CPU of a core, 1 node round`, value: cpuLine(one) },
      { label: `${name}: CPU of a core, 2 nodes round`, value: cpuLine(two) },
      { label: `${name}: CPU of a core, bare round`, value: cpuLine(bare) },
      { label: `${name}: loss / order`, value: loss },
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

/** The most connections of any of these shapes (0 for none). */
const mostOf = (shapes: Shape[]) => Math.max(0, ...shapes.map((s) => s.boards));

type DatabaseResults = { boards: ShapeResult[]; exhibits: ExhibitResult[] };

async function runDatabase(database: BenchDatabase, loads: Load[], exhibitLoads: ExhibitLoad[], receiver: Receiver, options: Options): Promise<DatabaseResults> {
  const server = tracked(await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database }));
  try {
    const started = performance.now();
    const place = await createSite(server);
    const boards = await createDevices(place, 'hardware', mostOf(options.shapes));
    const exhibits = await createDevices(place, 'exhibit', mostOf(options.exhibitShapes));
    log(`${database}: created ${boards.length} boards and ${exhibits.length} exhibits and their tokens through the REST API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const results: DatabaseResults = { boards: [], exhibits: [] };
    if (boards.length) {
      await openConsole(receiver, 'plinth', server, boards);
      const config = await place.api<{ mqttPort: number }>('GET', '/config');
      const plinth: SideTarget = {
        side: 'plinth',
        url: `mqtt://127.0.0.1:${config.mqttPort}`,
        boards,
        servers: [{ label: 'Plinth server', pid: server.pid }],
        support: [],
        dbPids: () => databasePids(server),
      };
      for (const shape of options.shapes) {
        results.boards.push({ database, shape, rounds: await runShape(shape, [plinth], startAedes, { loads, receiver }, options) });
      }
      receiver.send({ type: 'close-console', side: 'plinth' });
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
    await server.stop();
  }
}

/** The Redis of the two nodes' hub (BENCH_REDIS_URL, else the local one). */
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * The boards' part on Mosquitto (MQTT_URL), on PostgreSQL: two Mosquittos with dynamic security,
 * one behind one Plinth node (a single-node deployment: no Redis), one behind two nodes of one
 * deployment (one PostgreSQL database, $share subscriptions, the Redis hub, one SECRET_KEY); the
 * boards and their tokens are created through each deployment's first node, which provisions
 * them into its Mosquitto. Every shape then alternates rounds over one node, two nodes and a fresh
 * bare Mosquitto, with a console on each deployment's first node.
 */
async function runMosquitto(helpers: Helpers, options: Options): Promise<ShapeResult[]> {
  const mode = options.fromSource ? 'source' : 'dist';
  const env = { SECRET_KEY: randomBytes(32).toString('base64') };
  // Stopped in the reverse order: the second node before the first, which drops the database; the servers before their brokers.
  const started: { stop: () => Promise<unknown> }[] = [];
  const start = async <T extends { stop: () => Promise<unknown> }>(starting: Promise<T>): Promise<T> => {
    const thing = tracked(await starting);
    started.unshift(thing);
    return thing;
  };
  const servers: { label: string; server: BenchServer }[] = [];
  if (options.mosquittoConfig.length) log(`mosquitto: every Mosquitto's configuration adds: ${options.mosquittoConfig.join('; ')}`);
  try {
    const single = await start(startBenchMosquitto('dynsec', options.mosquittoConfig));
    const shared = await start(startBenchMosquitto('dynsec', options.mosquittoConfig));
    const startServer = async (label: string, starting: Promise<BenchServer>) => {
      const server = await start(starting);
      servers.push({ label, server });
      return server;
    };
    const one = await startServer('the one node', startBenchServer({ mode, log, database: 'postgres', env: { ...env, MQTT_URL: single.serverUrl } }));
    const clusterEnv = { ...env, MQTT_URL: shared.serverUrl, REDIS_URL };
    const first = await startServer('node 1', startBenchServer({ mode, log, database: 'postgres', env: clusterEnv }));
    const second = await startServer('node 2', startBenchServer({ mode, log, env: clusterEnv, databaseUrl: first.databaseUrl }));
    const creating = performance.now();
    const count = mostOf(options.shapes);
    const [oneBoards, clusterBoards] = await Promise.all([one, first].map(async (server) => createDevices(await createSite(server), 'hardware', count)));
    log(`mosquitto: created ${count} boards and their tokens on each deployment through the REST API in ${((performance.now() - creating) / 1000).toFixed(1)} s`);
    const redis = pidsByName('redis-server').map((pid) => ({ label: 'Redis (shared)', pid }));
    const sides: SideTarget[] = [
      { side: 'plinth', url: single.url, boards: oneBoards!, servers: [{ label: 'Plinth server', pid: one.pid }], support: [{ label: 'Mosquitto', pid: single.pid }], dbPids: () => databasePids(one) },
      {
        side: 'cluster',
        url: shared.url,
        boards: clusterBoards!,
        servers: [
          { label: 'Plinth node 1', pid: first.pid },
          { label: 'Plinth node 2', pid: second.pid },
        ],
        support: [{ label: 'Mosquitto', pid: shared.pid }, ...redis.slice(0, 1)],
        dbPids: () => databasePids(first),
      },
    ];
    await openConsole(helpers.receiver, 'plinth', one, oneBoards!);
    await openConsole(helpers.receiver, 'cluster', first, clusterBoards!);
    const results: ShapeResult[] = [];
    for (const shape of options.shapes) results.push({ database: 'postgres', shape, rounds: await runShape(shape, sides, () => startBareMosquitto(options.mosquittoConfig), helpers, options) });
    for (const side of ['plinth', 'cluster'] as const) helpers.receiver.send({ type: 'close-console', side });
    return results;
  } catch (error) {
    for (const { label, server } of servers) {
      const tail = server.logTail(20);
      if (tail) log(`${label} log tail:\n${tail}`);
    }
    throw error;
  } finally {
    for (const thing of started) await thing.stop();
  }
}

/** Which databases each part runs on, for the first line of the output. */
function databasesLine(options: Options): string {
  const parts = [
    options.brokers.includes('embedded') && `database ${options.databases.join(' and ')}`,
    options.brokers.includes('mosquitto') && "the Mosquitto part on PostgreSQL (two nodes share one database; PGlite is one process's)",
  ];
  return parts.filter(Boolean).join('; ');
}

async function main(): Promise<void> {
  const options = readOptions();
  if (!options.shapes.length && !options.exhibitShapes.length) throw new Error('--shapes none and --exhibit-shapes none (or --broker mosquitto) leave nothing to measure');
  const onMosquitto = options.brokers.includes('mosquitto');
  // Each board holds a socket per side in the load processes (two sides, three on Mosquitto) and one in each server; each exhibit one in a load process and one in the server.
  const most = Math.max(mostOf(options.shapes) * (onMosquitto ? 3 : 2), mostOf(options.exhibitShapes));
  const limitsNow = openFileLimits();
  if (limitsNow && limitsNow.soft < most + 500) {
    throw new Error(`the open-file limit is ${limitsNow.soft}; run \`ulimit -n ${most * 2}\` first (npm run bench raises it to the hard limit, ${limitsNow.hard})`);
  }
  const shapes = (list: Shape[]) => (list.length ? list.map((s) => `${s.boards} × ${s.window}`).join(', ') : 'none');
  log(
    `shapes ${shapes(options.shapes)}; exhibit shapes ${shapes(options.exhibitShapes)}; ${options.rounds} round(s) a side, ${options.warmupS} s warm-up + ${options.seconds} s measured; ` +
      `${options.loads} load process(es) per part; broker ${options.brokers.join(' and ')}; ${databasesLine(options)}` +
      `${options.rate ? `; Plinth's sides offered at most ${options.rate} prop changes a second (the bare broker uncapped)` : ''}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const loadsOf = <In, Out>(file: string, shapes: Shape[]) => (shapes.length ? Array.from({ length: options.loads }, () => forkHelper<In, Out>(file)) : []);
  const loads = loadsOf<ToLoad, FromLoad>('saturation-load.ts', options.shapes);
  const exhibitLoads = loadsOf<ToExhibitLoad, FromExhibitLoad>('saturation-exhibit-load.ts', options.exhibitShapes);
  const receiver = forkHelper<ToReceiver, FromReceiver>('saturation-receiver.ts');
  const children = [...loads.map((l) => l.child), ...exhibitLoads.map((l) => l.child), receiver.child];
  const interrupted = () => {
    log('interrupted: stopping');
    void Promise.all([stopLoadProcesses(children, { type: 'close' }, 5000), ...[...running].map((stop) => stop())]).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const results: DatabaseResults = { boards: [], exhibits: [] };
    for (const database of options.brokers.includes('embedded') ? options.databases : []) {
      const { boards, exhibits } = await runDatabase(database, loads, exhibitLoads, receiver, options);
      results.boards.push(...boards);
      results.exhibits.push(...exhibits);
    }
    const onMosquittoResults = onMosquitto && options.shapes.length ? await runMosquitto({ loads, receiver }, options) : [];
    const figures = [...summarize(results.boards), ...summarizeMosquitto(onMosquittoResults, options), ...summarizeExhibits(results.exhibits)];
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
