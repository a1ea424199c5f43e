// Hardware benchmark (issue 4): one Plinth server with its embedded MQTT broker, a fleet of
// simulated boards (@plinth/hardware-sim) in separate processes, heartbeating, plus a stream of
// prop changes, and one console socket subscribed to every board. Prints boards held, prop
// changes ingested per second, latency board publish → console socket, server memory per board,
// and a bare aedes broker's latency at the same rate. Then a control-room wall: `--wall` more
// console sockets (100 by default, 0 to skip), each subscribed to every board, in processes of
// their own (bench/hardware-wall-consoles.ts), and a second window of prop changes at the same
// rate: latency over every console's receptions and the server's CPU. Last, the venue's network
// drops: the fleet processes are killed, and the time until the console saw every board offline
// is printed with the server's CPU meanwhile. The whole measure runs on
// each database of `--database` in turn (both by default: the embedded PGlite, then PostgreSQL)
// and the figures are printed side by side. Plinth's throughput against the bare broker is
// measured by bench/saturation.bench.ts. Run through `npm run bench` (see docs/performance.md):
//   npm run bench -- hardware --boards 200 --duration 20 --wall 10 --wall-duration 10
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqtt from 'mqtt';
import pg from 'pg';
import { hardwareTopic } from '@plinth/shared';
import { createApiClient } from './lib/api-client.js';
import { openSubscribedConsole } from './lib/console-socket.js';
import { databasePids, onlineCount, stopLoadProcesses } from './lib/load-processes.js';
import { databaseCpu, figuresByDatabase, isFromSource, positiveNumber, printByDatabase, readDatabases, readFlags, wholeNumberOrZero } from './lib/options.js';
import { startBenchServer, checkServerBuild, ROOT, settledRss, stopOnInterrupt, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { openFileLimits, startCpuWindow } from './lib/proc-stats.js';
import { LatencyHistogram, mib, quantile } from './lib/stats.js';
import { BENCH_PROP, type FleetBoard } from './hardware-protocol.js';
import type { FromWall, ToWall } from './hardware-wall-consoles.js';
import { boardNames, createBoardsThroughApi, createBoardTokens, fleetTotals, startFleets, stopFleets, tellFleet, type Fleet } from './lib/board-fleets.js';

/** Issue 4's figures, and issue 22's: memory per board is resident memory with no forced collection, at or under 20 KB. */
const TARGETS = { boards: 10_000, p99Ms: 50, rate: 1000, bytesPerBoard: 20 * 1024, wallConsoles: 100, wallP99Ms: 100 };
/** A wall process at this share of one core is near its limit: the wall's figures then measure it, not the server. */
const RECEIVER_LIMIT_PERCENT = 90;

type Options = {
  boards: number;
  ratePerSecond: number;
  durationS: number;
  heartbeatMs: number;
  rampPerSecond: number;
  fleets: number;
  settleS: number;
  baseline: boolean;
  /** Console sockets of the control-room wall (0: no wall part), and how long its window lasts. */
  wall: number;
  wallDurationS: number;
  /** Boards a second reconnecting after the whole fleet dropped (0: that part is skipped). */
  returnPerSecond: number;
  /** The databases measured, one after the other (`--database pglite|postgres|both`). */
  databases: BenchDatabase[];
  fromSource: boolean;
};

function readOptions(): Options {
  const values = readFlags({
    boards: { type: 'string' },
    rate: { type: 'string' },
    duration: { type: 'string' },
    heartbeat: { type: 'string' },
    ramp: { type: 'string' },
    fleets: { type: 'string' },
    settle: { type: 'string' },
    'no-baseline': { type: 'boolean' },
    wall: { type: 'string' },
    'wall-duration': { type: 'string' },
    'return-rate': { type: 'string' },
    database: { type: 'string' },
  });
  const env = process.env;
  const boards = Math.round(positiveNumber(values.boards, env.BENCH_BOARDS, TARGETS.boards, 'boards'));
  return {
    boards,
    ratePerSecond: positiveNumber(values.rate, env.BENCH_RATE, TARGETS.rate, 'rate'),
    durationS: positiveNumber(values.duration, env.BENCH_DURATION, 60, 'duration'),
    heartbeatMs: positiveNumber(values.heartbeat, env.BENCH_HEARTBEAT_MS, 16_000, 'heartbeat'),
    rampPerSecond: positiveNumber(values.ramp, env.BENCH_RAMP, 250, 'ramp'),
    fleets: Math.round(positiveNumber(values.fleets, env.BENCH_FLEETS, Math.max(1, Math.ceil(boards / 5000)), 'fleets')),
    settleS: positiveNumber(values.settle, env.BENCH_SETTLE, 5, 'settle'),
    baseline: values['no-baseline'] !== true && env.BENCH_BASELINE !== '0',
    wall: wholeNumberOrZero(values.wall, env.BENCH_WALL, TARGETS.wallConsoles, 'wall'),
    wallDurationS: positiveNumber(values['wall-duration'], env.BENCH_WALL_DURATION, 20, 'wall-duration'),
    returnPerSecond: wholeNumberOrZero(values['return-rate'], env.BENCH_RETURN_RATE, 2000, 'return-rate'),
    databases: readDatabases(values.database),
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[hardware] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates an organization and a site through the REST API, then the boards and one token each.
 * On PostgreSQL straight into the database (hardware rows + hardware_tokens rows holding the
 * SHA-256 the server checks, hashSecret): 10,000 boards take about a second this way. On PGlite,
 * which the server process holds alone, through the REST API (10,000 in about 95 s).
 */
async function createBoards(server: BenchServer, count: number): Promise<{ siteId: string; boards: FleetBoard[] }> {
  const api = createApiClient(server.url, server.adminCookie);
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Benchmark museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Benchmark hall', organizationId: organization.id });
  if (server.database === 'pglite') return { siteId: site.id, boards: await createBoardsThroughApi(api, site.id, count) };
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      'insert into hardware (site_id, name) select $1::uuid, n from unnest($2::text[]) with ordinality as t(n, i) order by i returning id',
      [site.id, boardNames(count)],
    );
    const boards = await createBoardTokens(
      client,
      rows.map((row) => row.id),
    );
    return { siteId: site.id, boards };
  } finally {
    await client.end();
  }
}

/**
 * How many of the site's boards the server has stored as online: SQL on PostgreSQL; on PGlite,
 * open in the server process only, the site's board list through the REST API.
 */
async function boardsOnline(server: BenchServer, siteId: string): Promise<number> {
  if (server.database === 'postgres') return onlineCount(server, 'hardware');
  const { hardware } = await createApiClient(server.url, server.adminCookie)<{ hardware: { online: boolean }[] }>('GET', `/hardware-mgmt/hardware?siteId=${siteId}`);
  return hardware.filter((board) => board.online).length;
}

type ConsoleSocket = {
  /** Latency of each bench prop change seen, in ms. */
  latenciesMs: number[];
  counts: { props: number; statuses: number; online: number; offline: number };
  close: () => void;
};

/** A console socket signed in with the admin's session cookie, subscribed to every board in batches. */
async function openConsoleSocket(server: BenchServer, boards: FleetBoard[]): Promise<ConsoleSocket> {
  const result: ConsoleSocket = {
    latenciesMs: [],
    counts: { props: 0, statuses: 0, online: 0, offline: 0 },
    close: () => undefined,
  };
  const socket = await openSubscribedConsole({
    url: server.url,
    cookie: server.adminCookie,
    kind: 'hardwareIds',
    ids: boards.map((b) => b.id),
    batch: 1000,
    onEvent: (message, now) => {
      if (message.type === 'hardware.propChanged') {
        if (message.propName === BENCH_PROP.propName && typeof message.value === 'string' && /^\d+$/.test(message.value)) {
          result.latenciesMs.push(Number(now - BigInt(message.value)) / 1e6);
          result.counts.props += 1;
        }
      } else if (message.type === 'hardware.statusChanged') result.counts.statuses += 1;
      else if (message.type === 'hardware.presenceChanged') {
        if (message.online) result.counts.online += 1;
        else result.counts.offline += 1;
      }
    },
  });
  result.close = () => socket.close();
  return result;
}

/**
 * The whole venue's network drops: the fleet processes are killed, so every board's connection
 * closes at once without a goodbye (the broker publishes their wills). Measures how long until the
 * console has seen every board that was online go offline, and the server's CPU meanwhile.
 */
async function runFleetDrop(server: BenchServer, socket: ConsoleSocket, fleets: Fleet[], online: number): Promise<Figure[]> {
  const offlineBefore = socket.counts.offline;
  const serverCpu = startCpuWindow(() => [server.pid]);
  const started = performance.now();
  for (const fleet of fleets) fleet.child.kill('SIGKILL');
  const deadline = started + 120_000;
  while (socket.counts.offline - offlineBefore < online && performance.now() < deadline) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const cpu = serverCpu.stop();
  const seen = socket.counts.offline - offlineBefore;
  log(`fleet dropped: the console saw ${seen} of ${online} boards go offline in ${seconds.toFixed(1)} s`);
  return [
    {
      label: 'every board drops at once: seen offline by the console',
      value: `${seen} of ${online} in ${seconds.toFixed(1)} s, server CPU ${cpu.percentOfOneCore.toFixed(0)}% of a core (${cpu.cpuSeconds.toFixed(1)} s)`,
      target: 'every one',
      ok: seen >= online,
    },
  ];
}

/** How long the boards coming back may take, each and all. */
const RETURN_TIMEOUT_MS = 170_000;

/**
 * The venue's power comes back: every board that dropped reconnects within seconds
 * (`returnPerSecond` in all, from fresh fleet processes, up to 500 handshakes at once each).
 * Measures how long until the console has seen every one online again, and the server's CPU.
 */
async function runFleetReturn(server: BenchServer, socket: ConsoleSocket, boards: FleetBoard[], options: Options & { mqttUrl: string }): Promise<{ fleets: Fleet[]; figures: Figure[] }> {
  const onlineBefore = socket.counts.online;
  const fleets = startFleets(options.fleets);
  const dbPids = await databasePids(server);
  const serverCpu = startCpuWindow(() => [server.pid]);
  const dbCpu = startCpuWindow(() => dbPids);
  const fleetCpu = startCpuWindow(() => fleets.map((g) => g.child.pid!));
  const started = performance.now();
  fleets.forEach((fleet, g) =>
    tellFleet(fleet, {
      type: 'connect',
      url: options.mqttUrl,
      boards: boards.filter((_, i) => i % fleets.length === g),
      perSecond: options.returnPerSecond / fleets.length,
      inFlight: 500,
      heartbeatMs: options.heartbeatMs,
      // A board waits as long as it takes: the time until the last is back is the figure.
      timeoutMs: RETURN_TIMEOUT_MS,
    }),
  );
  const deadline = started + RETURN_TIMEOUT_MS + 10_000;
  while (socket.counts.online - onlineBefore < boards.length && performance.now() < deadline) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const cpu = serverCpu.stop();
  const db = dbCpu.stop();
  const load = fleetCpu.stop();
  const seen = socket.counts.online - onlineBefore;
  const { failed, errors } = fleetTotals(fleets);
  log(`fleet back: the console saw ${seen} of ${boards.length} boards come online in ${seconds.toFixed(1)} s (${failed} failed to connect${errors.length ? `: ${errors.join('; ')}` : ''})`);
  if (seen < boards.length) log(`server log tail:\n${server.logTail(30)}`);
  const figures = [
    {
      label: `every board comes back at once (${options.returnPerSecond} a second): seen online by the console`,
      value:
        `${seen} of ${boards.length} in ${seconds.toFixed(1)} s, server CPU ${cpu.percentOfOneCore.toFixed(0)}% of a core (${cpu.cpuSeconds.toFixed(1)} s)` +
        `${dbPids.length ? `, PostgreSQL ${db.percentOfOneCore.toFixed(0)}%` : ''}, fleets ${load.percentOfOneCore.toFixed(0)}%${failed ? `, ${failed} failed to connect` : ''}`,
      target: 'every one',
      ok: seen >= boards.length,
    },
  ];
  return { fleets, figures };
}

/** Tells every fleet to change the bench prop `ratePerSecond` times a second in all for `durationMs`, from a second from now; answers when (epoch ms). */
function startPropWindow(fleets: Fleet[], ratePerSecond: number, durationMs: number): number {
  const startAt = Date.now() + 1000;
  for (const fleet of fleets) {
    fleet.sent = null;
    tellFleet(fleet, { type: 'props', startAt, durationMs, perSecond: ratePerSecond / fleets.length });
  }
  return startAt;
}

/** What the fleets sent in the window just ended (each is waited for up to 10 s), their worst lag and event-loop delay. */
async function sentByFleets(fleets: Fleet[]) {
  for (let i = 0; i < 100 && fleets.some((g) => !g.sent); i++) await sleep(100);
  const none = { sent: 0, skipped: 0, lateMs: 0, loopDelayP99Ms: 0, loopDelayMaxMs: 0 };
  return fleets
    .map((g) => g.sent ?? none)
    .reduce((all, one) => {
      const worst = (key: 'lateMs' | 'loopDelayP99Ms' | 'loopDelayMaxMs') => Math.max(all[key], one[key]);
      return { sent: all.sent + one.sent, skipped: all.skipped + one.skipped, lateMs: worst('lateMs'), loopDelayP99Ms: worst('loopDelayP99Ms'), loopDelayMaxMs: worst('loopDelayMaxMs') };
    }, none);
}

/** Each second's worst latency over every wall process, from the wall's start (where its tail comes from: stalls at the start, or spread). */
function worstBySecond(counts: WallCount[]): string[] {
  const seconds = Math.max(0, ...counts.map((c) => c.worstBySecond?.length ?? 0));
  return Array.from({ length: seconds }, (_, s) => Math.max(0, ...counts.map((c) => c.worstBySecond?.[s] ?? 0)).toFixed(0));
}

/** A wall process: its child, and the answer it gives to each message, in turn. */
type WallProcess = { child: ChildProcess; ask: (message: ToWall, timeoutMs?: number) => Promise<FromWall> };

function forkWallProcess(): WallProcess {
  const child = fork(path.join(ROOT, 'bench/hardware-wall-consoles.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const answers: ((message: FromWall) => void)[] = [];
  child.on('message', (message: FromWall) => answers.shift()?.(message));
  // Asked one thing at a time: each answer goes to the oldest question.
  const ask = (message: ToWall, timeoutMs = 30_000) =>
    new Promise<FromWall>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`wall process ${child.pid} did not answer '${message.type}' within ${timeoutMs / 1000} s`)), timeoutMs);
      answers.push((answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      child.send(message);
    });
  return { child, ask };
}

type WallCount = Extract<FromWall, { type: 'count' }>;

/**
 * The control-room wall: `options.wall` console sockets, each signed in with the admin's session
 * and subscribed to every board, spread over 2 to 4 processes (bench/hardware-wall-consoles.ts),
 * then a second window of prop changes at the benchmark's rate. Answers its figures: what every
 * console saw, latency over all the consoles' receptions, the server's and the wall's CPU.
 */
async function runWall(server: BenchServer, boards: FleetBoard[], fleets: Fleet[], options: Options): Promise<Figure[]> {
  const processes = Math.min(options.wall, Math.max(2, Math.min(4, Math.ceil(options.wall / 25))));
  const walls = Array.from({ length: processes }, forkWallProcess);
  try {
    let started = performance.now();
    const hardwareIds = boards.map((b) => b.id);
    const opened = await Promise.all(
      walls.map((wall, p) =>
        wall.ask({ type: 'open', url: server.url, cookie: server.adminCookie, hardwareIds, consoles: Math.floor((options.wall + processes - 1 - p) / processes) }, 600_000),
      ),
    );
    for (const answer of opened) if (answer.type === 'failed') throw new Error(`a wall console failed to open: ${answer.error}`);
    log(`wall: ${options.wall} console sockets in ${processes} processes signed in and subscribed to every board in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const durationMs = options.wallDurationS * 1000;
    const startAt = startPropWindow(fleets, options.ratePerSecond, durationMs);
    await Promise.all(walls.map((wall) => wall.ask({ type: 'start' })));
    started = performance.now();
    await sleep(startAt - Date.now());
    const serverCpu = startCpuWindow(() => [server.pid]);
    const wallCpu = walls.map((wall) => startCpuWindow(() => [wall.child.pid!]));
    await sleep(durationMs);
    const serverWindow = serverCpu.stop();
    const receivers = wallCpu.map((window) => window.stop());
    const count = async (latency: boolean) => (await Promise.all(walls.map((wall) => wall.ask({ type: 'count', latency })))) as WallCount[];
    const atEnd = await count(false);
    const heartbeatsPerSecond = atEnd.reduce((n, c) => n + c.heartbeats, 0) / ((performance.now() - started) / 1000);
    const fleet = await sentByFleets(fleets);
    for (let i = 0; i < 100 && (await count(false)).some((c) => c.props.some((n) => n < fleet.sent)); i++) await sleep(100);
    const final = await count(true);
    const props = final.flatMap((c) => c.props);
    const latency = new LatencyHistogram();
    for (const c of final) latency.merge(c.latency!);
    const p99 = latency.quantile(0.99);
    const receiverCpu = receivers.map((r, p) => `${r.percentOfOneCore.toFixed(0)}%${r.percentOfOneCore >= RECEIVER_LIMIT_PERCENT ? ' LIMIT' : ''} (${final[p]!.props.length} consoles)`);
    log(`wall done: ${props.filter((n) => n === fleet.sent).length} of ${options.wall} consoles saw all ${fleet.sent} prop changes, p99 ${ms(p99)}; receivers' CPU ${receiverCpu.join(', ')}`);
    const worstLoop = (pick: (c: WallCount) => number | undefined) => Math.max(...final.map((c) => pick(c) ?? 0));
    return [
      { label: 'wall: console sockets, each watching every board', value: `${options.wall} in ${processes} receiver processes`, target: `${TARGETS.wallConsoles}`, ok: options.wall >= TARGETS.wallConsoles },
      { label: 'wall: prop changes sent / received per console', value: `${fleet.sent} / ${Math.min(...props)} to ${Math.max(...props)}${fleet.skipped ? ` (${fleet.skipped} skipped: board offline)` : ''} (fleet lag max ${fleet.lateMs.toFixed(0)} ms)` },
      { label: 'wall: consoles that saw every prop change', value: `${props.filter((n) => n === fleet.sent).length} of ${options.wall}`, target: 'every one', ok: props.every((n) => n === fleet.sent) },
      { label: 'wall: latency publish → console p50 / p99 / max (all consoles)', value: `${ms(latency.quantile(0.5))} / ${ms(p99)} / ${ms(latency.maxMs)} (${latency.count} receptions)` },
      { label: 'wall: latency p99', value: ms(p99), target: `< ${TARGETS.wallP99Ms} ms`, ok: p99 < TARGETS.wallP99Ms },
      { label: 'wall: server CPU', value: `${serverWindow.percentOfOneCore.toFixed(1)}% of one core (${serverWindow.cpuSeconds.toFixed(1)} s in ${serverWindow.seconds.toFixed(0)} s)` },
      { label: 'wall: receiver processes CPU (% of one core)', value: `${receiverCpu.join(', ')}; ${receivers.reduce((n, r) => n + r.percentOfOneCore, 0).toFixed(0)}% in all` },
      { label: 'wall: worst latency of the changes sent in each second (ms)', value: worstBySecond(final).join(' ') },
      { label: 'wall: receivers event-loop delay p99 / max', value: `${ms(worstLoop((c) => c.loopDelayP99Ms))} / ${ms(worstLoop((c) => c.loopDelayMaxMs))}` },
      { label: 'wall: heartbeats delivered', value: `${heartbeatsPerSecond.toFixed(0)} /s in total (consoles × boards / heartbeat interval: ${((options.wall * boards.length * 1000) / options.heartbeatMs).toFixed(0)} /s)` },
    ];
  } finally {
    await stopLoadProcesses(
      walls.map((wall) => wall.child),
      { type: 'close' } satisfies ToWall,
      10_000,
    );
  }
}

type Baseline = { ratePerSecond: number; latenciesMs: number[]; sent: number; received: number };

/**
 * The bare broker: aedes alone in its own process, one publisher sending the same prop payloads
 * on the same topics (QoS 1, as boards do) and one subscriber (QoS 0, as Plinth reads them in
 * process and pushes them on a socket with no acknowledgement). Measures latency at the same
 * rate (throughput against Plinth: bench/saturation.bench.ts).
 */
async function runBaseline(boards: FleetBoard[], options: Options): Promise<Baseline> {
  const child = fork(path.join(ROOT, 'bench/hardware-aedes-broker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { type: string; port: number }) => resolve(message.port));
      child.once('exit', (code) => reject(new Error(`the aedes broker exited (${code})`)));
    });
    const url = `mqtt://127.0.0.1:${port}`;
    const subscriber = await mqtt.connectAsync(url, { clientId: 'bench-subscriber', clean: true, reconnectPeriod: 0 });
    const publisher = await mqtt.connectAsync(url, { clientId: 'bench-publisher', clean: true, reconnectPeriod: 0 });
    const latenciesMs: number[] = [];
    let received = 0;
    subscriber.on('message', (_topic, payload) => {
      const now = process.hrtime.bigint();
      const message = JSON.parse(payload.toString()) as { value: string };
      latenciesMs.push(Number(now - BigInt(message.value)) / 1e6);
      received += 1;
    });
    await subscriber.subscribeAsync('plinth/hw/+/prop', { qos: 0 });
    const topics = boards.map((b) => hardwareTopic(b.id, 'prop'));
    let next = 0;
    const publish = () =>
      publisher.publishAsync(
        topics[next++ % topics.length]!,
        JSON.stringify({ ...BENCH_PROP, value: process.hrtime.bigint().toString() }),
        { qos: 1 },
      );

    // Open loop at the benchmark's rate.
    const seconds = Math.min(options.durationS, 15);
    const total = Math.round(seconds * options.ratePerSecond);
    const origin = performance.now();
    for (let k = 0; k < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - origin) * options.ratePerSecond) / 1000) + 1);
      for (; k < due; k++) void publish();
      await sleep(Math.max(1, origin + (k * 1000) / options.ratePerSecond - performance.now()));
    }
    for (let i = 0; i < 50 && received < total; i++) await sleep(100);
    await Promise.all([subscriber.endAsync(), publisher.endAsync()]);
    return { ratePerSecond: options.ratePerSecond, latenciesMs: latenciesMs.sort((a, b) => a - b), sent: total, received };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }
}

type Figure = { label: string; value: string; target?: string; ok?: boolean };

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The server and the fleets of the database being measured, for an interrupted run to stop. */
let runningServer: BenchServer | null = null;
let runningFleets: Fleet[] = [];

/**
 * The whole measure on one database: a fresh server, the boards, the fleets connecting, the
 * steady state and the wall; answers its figures and the boards (the bare broker's topics).
 */
async function runDatabase(database: BenchDatabase, options: Options): Promise<{ figures: Figure[]; boards: FleetBoard[] }> {
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  runningServer = server;
  let consoleSocket: ConsoleSocket | null = null;
  try {
    // Memory per board (issue 22): the server's resident memory at the end of the steady state, with
    // no collection forced, less its memory with the boards created but none connected (what holding
    // them costs) and less the fresh server's (what an operator sees it grow by, the embedded
    // database's grown buffers and the setup's leftovers included); the larger counts. RSS falls in
    // steps as the setup's leftovers are handed back, which alone would flatter the first.
    const rssFresh = await settledRss(server);
    const gcFresh = await server.memory();
    let started = performance.now();
    const { siteId, boards } = await createBoards(server, options.boards);
    const setupS = (performance.now() - started) / 1000;
    const how = database === 'postgres' ? 'bulk SQL' : 'the REST API, 8 at a time';
    log(`${database}: created ${boards.length} boards and tokens (org and site through REST, boards through ${how}) in ${setupS.toFixed(1)} s`);

    const socket = await openConsoleSocket(server, boards);
    consoleSocket = socket;
    log('console socket signed in with the admin session and subscribed to every board');

    const rssBefore = await settledRss(server);
    runningFleets = startFleets(options.fleets);
    const fleets = runningFleets;
    const rampCpu = startCpuWindow(() => [server.pid]);
    started = performance.now();
    const mqttUrl = `mqtt://127.0.0.1:${await mqttPortOf(server)}`;
    fleets.forEach((fleet, g) =>
      tellFleet(fleet, {
        type: 'connect',
        url: mqttUrl,
        boards: boards.filter((_, i) => i % fleets.length === g),
        perSecond: options.rampPerSecond / fleets.length,
        inFlight: Math.max(10, Math.round(200 / fleets.length)),
        heartbeatMs: options.heartbeatMs,
      }),
    );
    const rampDeadline = Date.now() + (options.boards / options.rampPerSecond) * 1000 + 120_000;
    let lastLine = 0;
    for (;;) {
      await sleep(500);
      const t = fleetTotals(fleets);
      if (Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        log(`connecting: ${t.ready} ready, ${t.failed} failed, console saw ${socket.counts.online} online`);
      }
      if (t.ready + t.failed >= options.boards) break;
      if (Date.now() > rampDeadline) throw new Error(`only ${t.ready} of ${options.boards} boards were ready in time; errors: ${t.errors.join('; ')}`);
    }
    const rampS = (performance.now() - started) / 1000;
    const ramp = rampCpu.stop();
    const afterRamp = fleetTotals(fleets);
    if (afterRamp.failed) log(`${afterRamp.failed} boards failed: ${afterRamp.errors.join('; ')}`);
    // The server works through its backlog (announces, heartbeats) before memory is read. On PGlite
    // the console's presence events tell: the board list through REST, a large answer, would grow
    // the memory read next, so it is read once, at the end, after the memory readings.
    const onlineNow = async () => (database === 'postgres' ? onlineCount(server, 'hardware') : socket.counts.online - socket.counts.offline);
    for (let i = 0; i < 120 && (await onlineNow()) < afterRamp.ready; i++) await sleep(500);
    await sleep(options.settleS * 1000);
    const rssConnected = await settledRss(server);
    const heldAfterRamp = await onlineNow();
    log(`${afterRamp.ready} boards ready in ${rampS.toFixed(1)} s; the server has ${heldAfterRamp} online; RSS ${mib(rssConnected)}`);

    // Steady state: the open-loop prop stream over the heartbeats.
    socket.latenciesMs.length = 0;
    const disconnectsBefore = fleetTotals(fleets).disconnects;
    const statusesBefore = socket.counts.statuses;
    const durationMs = options.durationS * 1000;
    await sleep(startPropWindow(fleets, options.ratePerSecond, durationMs) - Date.now());
    const dbPids = await databasePids(server);
    const consoleLoop = monitorEventLoopDelay({ resolution: 1 });
    consoleLoop.enable();
    const steadyCpu = startCpuWindow(() => [server.pid]);
    const dbCpu = startCpuWindow(() => dbPids);
    const fleetCpu = startCpuWindow(() => fleets.map((g) => g.child.pid!));
    await sleep(durationMs);
    const steady = steadyCpu.stop();
    const db = dbCpu.stop();
    const load = fleetCpu.stop();
    const statuses = socket.counts.statuses - statusesBefore;
    const { sent, skipped, lateMs, loopDelayP99Ms: fleetLoopP99, loopDelayMaxMs: fleetLoopMax } = await sentByFleets(fleets);
    consoleLoop.disable();
    for (let i = 0; i < 100 && socket.latenciesMs.length < sent; i++) await sleep(100);
    const latencies = [...socket.latenciesMs].sort((a, b) => a - b);
    const rssEnd = await settledRss(server);
    const gcEnd = await server.memory();
    const heldAtEnd = await boardsOnline(server, siteId);
    const end = fleetTotals(fleets);
    log(`steady state done: ${latencies.length} of ${sent} prop changes seen, p99 ${ms(quantile(latencies, 0.99))}`);
    const wallFigures = options.wall > 0 ? await runWall(server, boards, fleets, options) : [];
    if (end.errors.length) log(`board errors seen: ${end.errors.join('; ')}`);
    const dropFigures = await runFleetDrop(server, socket, fleets, heldAtEnd);
    let returnFigures: Figure[] = [];
    if (options.returnPerSecond > 0) {
      const back = await runFleetReturn(server, socket, boards, { ...options, mqttUrl });
      runningFleets = back.fleets;
      returnFigures = back.figures;
    }

    const held = Math.min(heldAfterRamp, afterRamp.ready);
    // The larger of the two: neither the setup's leftovers nor the memory they free later may flatter it.
    const perBoard = Math.max(rssEnd - rssBefore, rssEnd - rssFresh) / held;
    const perBoardAfterGc = (gcEnd.rss - gcFresh.rss) / held;
    const heapPerBoard = (gcEnd.heapUsed - gcFresh.heapUsed) / held;
    const p99 = quantile(latencies, 0.99);
    const ingested = latencies.length / options.durationS;
    const figures: Figure[] = [
      { label: 'boards connected and held', value: `${heldAtEnd} of ${options.boards} (after ramp ${heldAfterRamp})`, target: `${TARGETS.boards}`, ok: heldAtEnd >= TARGETS.boards && heldAtEnd === options.boards },
      { label: 'disconnections during the measurement', value: `${end.disconnects - disconnectsBefore}` },
      { label: 'setup (org, site via REST; boards, tokens)', value: `${setupS.toFixed(1)} s (boards through ${how})` },
      { label: 'connecting (auth + subscribe + status + announce)', value: `${rampS.toFixed(1)} s, server CPU ${ramp.percentOfOneCore.toFixed(0)}% of a core` },
      { label: 'prop changes sent / seen by the console', value: `${sent} / ${latencies.length}${skipped ? ` (${skipped} skipped: board offline)` : ''}`, target: 'every one', ok: latencies.length === sent },
      { label: 'prop changes ingested', value: `${ingested.toFixed(0)} /s (offered ${options.ratePerSecond} /s; fleet lag max ${lateMs.toFixed(0)} ms)`, target: `${TARGETS.rate} /s`, ok: ingested >= TARGETS.rate * 0.99 && ingested >= options.ratePerSecond * 0.99 },
      { label: 'heartbeats seen by the console', value: `${(statuses / options.durationS).toFixed(0)} /s (boards / heartbeat interval: ${((held * 1000) / options.heartbeatMs).toFixed(0)} /s)` },
      { label: 'latency board publish → console p50', value: ms(quantile(latencies, 0.5)) },
      { label: 'latency p90', value: ms(quantile(latencies, 0.9)) },
      { label: 'latency p99', value: ms(p99), target: `< ${TARGETS.p99Ms} ms`, ok: p99 < TARGETS.p99Ms },
      { label: 'latency max', value: ms(latencies.at(-1) ?? Number.NaN) },
      { label: 'event-loop delay p99 / max: fleet, console', value: `${ms(fleetLoopP99)} / ${ms(fleetLoopMax)}, ${ms(consoleLoop.percentile(99) / 1e6 - 1)} / ${ms(consoleLoop.max / 1e6 - 1)}` },
      { label: 'server CPU, steady state', value: `${steady.percentOfOneCore.toFixed(1)}% of one core (${steady.cpuSeconds.toFixed(1)} s in ${steady.seconds.toFixed(0)} s)` },
      { label: 'database CPU, steady state', value: databaseCpu(database, db.percentOfOneCore) },
      { label: 'board fleet CPU, steady state', value: `${load.percentOfOneCore.toFixed(1)}% of one core` },
      { label: 'server RSS fresh / boards created / connected / end', value: `${mib(rssFresh)} / ${mib(rssBefore)} / ${mib(rssConnected)} / ${mib(rssEnd)} (a board: ${kb((rssConnected - rssBefore) / held)} connected less created, ${kb((rssEnd - rssFresh) / held)} end less fresh)` },
      { label: 'server memory per board (RSS, no forced collection: the larger of end less created and end less fresh)', value: kb(perBoard), target: `≤ ${TARGETS.bytesPerBoard / 1024} KB`, ok: perBoard <= TARGETS.bytesPerBoard },
      { label: 'after a full GC (end less fresh): RSS / JS heap per board', value: `${kb(perBoardAfterGc)} / ${kb(heapPerBoard)}` },
      ...wallFigures,
      ...dropFigures,
      ...returnFigures,
    ];
    return { figures, boards };
  } catch (error) {
    const tail = server.logTail(20);
    if (tail) log(`server log tail:\n${tail}`);
    throw error;
  } finally {
    consoleSocket?.close();
    await stopFleets(runningFleets);
    await server.stop();
    log(`${database}: stopped the fleet and the server, removed the database`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const limits = openFileLimits();
  // Each board is one descriptor in its fleet process and one in the server (both inherit this limit).
  const need = options.boards + 500;
  if (limits && limits.soft < need) {
    throw new Error(`the open-file limit is ${limits.soft}; run \`ulimit -n ${Math.max(need * 2, 4096)}\` first (npm run bench raises it to the hard limit, ${limits.hard})`);
  }
  log(
    `${options.boards} boards in ${options.fleets} fleet process(es), a heartbeat every ${options.heartbeatMs / 1000} s, ` +
      `${options.ratePerSecond} prop changes/s for ${options.durationS} s, ` +
      `connecting ${options.rampPerSecond}/s; database ${options.databases.join(' then ')}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  stopOnInterrupt(log, () => stopFleets(runningFleets).then(() => runningServer?.stop()));

  const runs: { database: BenchDatabase; figures: Figure[] }[] = [];
  let boards: FleetBoard[] = [];
  for (const database of options.databases) {
    const run = await runDatabase(database, options);
    runs.push({ database, figures: run.figures });
    boards = run.boards;
  }
  const figures = figuresByDatabase(runs);
  const common: Figure[] = [{ label: 'Plinth throughput against bare aedes', value: 'npm run bench -- saturation (same load shape on both sides)' }];
  if (options.baseline) {
    log('baseline: a bare aedes broker in its own process, one publisher, one subscriber');
    const baseline = await runBaseline(boards, options);
    common.push({
      label: 'bare aedes: latency at the same rate p50 / p99',
      value: `${ms(quantile(baseline.latenciesMs, 0.5))} / ${ms(quantile(baseline.latenciesMs, 0.99))} (${baseline.received} of ${baseline.sent})`,
    });
  }
  printByDatabase(
    `Hardware benchmark: ${options.boards} boards, heartbeat ${options.heartbeatMs / 1000} s, ${options.ratePerSecond} prop changes/s, ` +
      `${options.durationS} s measured${options.wall ? `, a wall of ${options.wall} consoles for ${options.wallDurationS} s` : ''} (${new Date().toISOString()})`,
    runs,
  );
  console.log('');
  for (const f of common) console.log(`${f.label}: ${f.value}`);
  writeResults(options, [...figures, ...common]);
}

/** The MQTT port boards connect to, as the server tells its console (GET /api/v1/config). */
async function mqttPortOf(server: BenchServer): Promise<number> {
  const api = createApiClient(server.url, server.adminCookie);
  const config = await api<{ mqttPort: number }>('GET', '/config');
  return config.mqttPort;
}

/** `npm run bench` collects figures from the file named by BENCH_RESULTS_FILE (see scripts/bench.mjs). */
function writeResults(options: Options, figures: Figure[]): void {
  const file = process.env.BENCH_RESULTS_FILE;
  if (!file) return;
  fs.writeFileSync(file, JSON.stringify({ name: 'hardware', options, figures }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[hardware] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
