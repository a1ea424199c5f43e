// People and notifications benchmark:
//   1. the mail outbox: 5,000 notification mails due at the same instant, sent to an SMTP capture
//      in this process by every instance's sender (rows claimed with FOR UPDATE SKIP LOCKED) — on
//      PostgreSQL with two instances sharing the database (Redis hub), on PGlite with the one it
//      allows. Prints mails a second, the time to drain, duplicates and lost mails (both must be 0).
//   2. granular levels on the console socket: one exhibit with 200 statuses whose SDK socket sends
//      1,000 status changes a second for 10 s, watched by a VIEWER console socket with half the
//      statuses hidden by stored levels and by a MANAGER one with no levels. Prints what each
//      received (the viewer exactly the visible ones) and the latency SDK send → console receive.
// Run through `npm run bench` (see docs/performance.md); the servers run from the sources through
// tsx, no build needed:
//   npm run bench -- people --mails 2000 --database postgres --rate 500 --duration 5
//   npm run bench -- people --mails 400 --smtp-no-pool     each mail on its own SMTP connection
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newSecretKeyText } from '../apps/server/src/lib/secret-box.js';
import { MailCapture } from '../apps/server/src/test/mail-capture.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../apps/server/src/test/postgres.js';
import { positiveNumber, readFlags, wholeNumber, readDatabases } from './lib/options.js';
import { BENCH_PASSWORD, mailMarker, type FromNode, type ToNode } from './lib/people-protocol.js';
import { openConsoleSocket, openSdkSocket, signIn, waitFor, type ConsoleSocket } from './lib/people-sockets.js';
import { ROOT, type BenchDatabase } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

type Options = {
  mails: number;
  /** Users of the exhibit each mail cause goes to (mails / users causes). */
  users: number;
  /** Server instances on PostgreSQL (PGlite always runs one). */
  nodes: number;
  databases: BenchDatabase[];
  /** The database of the granular-levels part (one instance). */
  levelsOn: BenchDatabase;
  statuses: number;
  /** Status changes a second from the SDK socket. */
  rate: number;
  durationS: number;
  /** Seconds between queueing the mails and their due time. */
  leadS: number;
  timeoutS: number;
  /**
   * Whether the instances' SMTP_URL asks nodemailer for a pooled transport (`pool=true`): without
   * it each mail opens its own SMTP connection, about 100 ms each here (see docs/performance.md).
   */
  smtpPool: boolean;
};

function readOptions(): Options {
  const values = readFlags({
    mails: { type: 'string' },
    users: { type: 'string' },
    nodes: { type: 'string' },
    database: { type: 'string' },
    'levels-on': { type: 'string' },
    statuses: { type: 'string' },
    rate: { type: 'string' },
    duration: { type: 'string' },
    lead: { type: 'string' },
    timeout: { type: 'string' },
    'smtp-no-pool': { type: 'boolean' },
  });
  const env = process.env;
  const levelsOn = String(values['levels-on'] ?? env.BENCH_LEVELS_ON ?? 'pglite');
  if (!['postgres', 'pglite'].includes(levelsOn)) throw new Error(`--levels-on must be postgres or pglite (got ${levelsOn})`);
  const statuses = wholeNumber(values.statuses, env.BENCH_STATUSES, 200, 'statuses');
  if (statuses < 2 || statuses > 500) throw new Error(`--statuses must be 2 to 500 (a manifest holds up to 500; got ${statuses})`);
  return {
    mails: wholeNumber(values.mails, env.BENCH_MAILS, 5000, 'mails'),
    users: wholeNumber(values.users, env.BENCH_USERS, 20, 'users'),
    nodes: wholeNumber(values.nodes, env.BENCH_NODES, 2, 'nodes'),
    databases: readDatabases(values.database),
    levelsOn: levelsOn as BenchDatabase,
    statuses,
    rate: wholeNumber(values.rate, env.BENCH_RATE, 1000, 'rate'),
    durationS: positiveNumber(values.duration, env.BENCH_DURATION, 10, 'duration'),
    leadS: positiveNumber(values.lead, env.BENCH_LEAD, 5, 'lead'),
    timeoutS: positiveNumber(values.timeout, env.BENCH_TIMEOUT, 150, 'timeout'),
    smtpPool: values['smtp-no-pool'] !== true && env.BENCH_SMTP_NO_POOL !== '1',
  };
}

const log = (line: string) => console.log(`[people] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const millis = (ms: number) => `${ms.toFixed(1)} ms`;

type Figure = { label: string; value: string; target?: string; ok?: boolean };

/** What to undo when the run ends or is interrupted (server processes, the database, data directories). */
const cleanups = new Set<() => Promise<void> | void>();
async function cleanUp(): Promise<void> {
  for (const undo of [...cleanups].reverse()) await Promise.resolve(undo()).catch(() => undefined);
  cleanups.clear();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** A message to a node without its id (the id pairs it with the answer). */
type Request = ToNode extends infer M ? (M extends ToNode ? Omit<M, 'id'> : never) : never;

/** A server instance in its own process (bench/lib/people-node.ts), asked over IPC. */
type Node = { child: ChildProcess; url: string; ask: <T>(message: Request) => Promise<T>; stop: () => Promise<void> };

async function startNode(env: NodeJS.ProcessEnv): Promise<Node> {
  const child = fork(path.join(ROOT, 'bench/lib/people-node.ts'), [], { cwd: ROOT, env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<string>((resolve, reject) => {
    child.on('message', (message: FromNode) => {
      if (message.type === 'ready') resolve(message.url);
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
  const url = await ready;
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
  return { child, url, ask, stop };
}

/** A fresh database and `count` instances sharing it (the first migrates it alone), mailing to `smtpUrl`. */
async function startDeployment(database: BenchDatabase, setup: { count: number; smtpUrl: string }): Promise<Node[]> {
  let url = '';
  if (database === 'postgres') {
    await ensurePostgres();
    const name = uniqueDatabaseName('plinth_bench');
    await adminQuery(`create database ${name}`);
    url = databaseUrl(name);
    cleanups.add(() => adminQuery(`drop database if exists ${name} with (force)`));
  }
  const secretKey = newSecretKeyText();
  const nodes: Node[] = [];
  for (let i = 0; i < setup.count; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-people-'));
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
      REDIS_URL: setup.count > 1 ? (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
      SMTP_URL: setup.smtpUrl,
      SECRET_KEY: secretKey,
    });
    cleanups.add(node.stop);
    nodes.push(node);
  }
  log(`${database}: ${setup.count} server instance(s) (${nodes.map((n) => `pid ${n.child.pid}`).join(', ')})${database === 'postgres' ? `, database ${new URL(url).pathname.slice(1)}${setup.count > 1 ? ', Redis hub' : ''}` : ', embedded PGlite'}`);
  return nodes;
}

/** An exhibit and `count` users of it (VIEWER) with the op-mode mails on. */
async function mailAudience(node: Node, count: number): Promise<{ exhibitId: string; userIds: string[] }> {
  const exhibitId = await node.ask<string>({ type: 'createExhibit' });
  const userIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const userId = await node.ask<string>({ type: 'createUser', email: `bench-reader-${i}@example.com`, admin: false });
    await node.ask({ type: 'grant', exhibitId, userId, role: 'VIEWER' });
    await node.ask({ type: 'subscribe', exhibitId, userId });
    userIds.push(userId);
  }
  return { exhibitId, userIds };
}

/** Part 1 on one database: queue the mails, wait for the outbox to drain, count what the capture got. */
async function mailRun(database: BenchDatabase, options: Options): Promise<Figure[]> {
  const capture = new MailCapture();
  const smtpUrl = `${await capture.start()}${options.smtpPool ? '&pool=true' : ''}`;
  cleanups.add(() => capture.close());
  const nodes = await startDeployment(database, { count: database === 'postgres' ? options.nodes : 1, smtpUrl });
  const first = nodes[0]!;
  const { exhibitId, userIds } = await mailAudience(first, options.users);
  const causes = Math.ceil(options.mails / userIds.length);
  const dueAtMs = Date.now() + options.leadS * 1000;
  let started = performance.now();
  const queued = await first.ask<number>({ type: 'queueMails', plan: { exhibitId, userIds, causes, dueAtMs } });
  log(`${database}: ${queued} mails queued (${causes} causes × ${userIds.length} users) in ${seconds(performance.now() - started)}, due ${new Date(dueAtMs).toISOString()}`);
  if (Date.now() >= dueAtMs) log('WARNING: queueing ended after the due time; raise --lead');
  await sleep(Math.max(0, dueAtMs - Date.now()));
  started = performance.now();
  let lastDeliveredMs = 0;
  let lastCount = 0;
  const deadline = Date.now() + options.timeoutS * 1000;
  let lastLine = Date.now();
  for (;;) {
    await sleep(50);
    if (capture.mails.length !== lastCount) {
      lastCount = capture.mails.length;
      lastDeliveredMs = performance.now() - started;
    }
    if (Date.now() - lastLine >= 5000) {
      lastLine = Date.now();
      log(`${database}: ${capture.mails.length} of ${queued} delivered`);
    }
    if (capture.mails.length >= queued) break;
    if (Date.now() > deadline) break;
  }
  // Every row settled (sent, or dropped), then one more poll period for a late duplicate.
  const states = await settledStates(first, exhibitId, deadline);
  await sleep(1500);
  const markers = capture.mails.map((m) => `${m.to.join()} ${/bench mail #\d+/.exec(m.subject)?.[0] ?? m.subject}`);
  const unique = new Set(markers);
  const expected = new Set(userIds.flatMap((_, i) => Array.from({ length: causes }, (__, cause) => `bench-reader-${i}@example.com ${mailMarker(cause)}`)));
  const lost = [...expected].filter((key) => !unique.has(key)).length;
  const duplicates = markers.length - unique.size;
  return [
    { label: 'server instances', value: `${nodes.length}${nodes.length > 1 ? ' sharing the database, Redis hub' : ''}, SMTP ${options.smtpPool ? 'pooled (pool=true)' : 'a connection per mail'}` },
    { label: 'mails queued / delivered to the SMTP capture', value: `${queued} / ${capture.mails.length}`, target: `${options.mails}`, ok: queued === expected.size && capture.mails.length === queued },
    { label: 'outbox rows by state at the end', value: Object.entries(states).map(([state, n]) => `${state} ${n}`).join(', ') },
    { label: 'duplicates', value: `${duplicates}`, target: '0', ok: duplicates === 0 },
    { label: 'lost', value: `${lost}`, target: '0', ok: lost === 0 },
    { label: 'due → last mail delivered (drain)', value: seconds(lastDeliveredMs) },
    { label: 'throughput', value: `${(unique.size / (lastDeliveredMs / 1000)).toFixed(0)} mails/s` },
  ];
}

/** Waits until no outbox row of the exhibit is pending or being sent; answers the rows by state. */
async function settledStates(node: Node, exhibitId: string, deadline: number): Promise<Record<string, number>> {
  for (;;) {
    const states = await node.ask<Record<string, number>>({ type: 'outboxStates', exhibitId });
    if (!states.pending && !states.sending) return states;
    if (Date.now() > deadline) return states;
    await sleep(250);
  }
}

/** The exhibit of part 2 as its SDK declares it: `count` Integer statuses s000, s001... */
function statusIdsOf(count: number): string[] {
  const width = String(count - 1).length;
  return Array.from({ length: count }, (_, i) => `s${String(i).padStart(width, '0')}`);
}

/**
 * Sends `rate` status changes a second for `durationMs`, round robin over the statuses, each value
 * its sequence number; answers when each was sent (performance.now()), by sequence number.
 */
async function sendChanges(send: (statusId: string, value: number) => void, plan: { statusIds: string[]; rate: number; durationMs: number }): Promise<number[]> {
  const sentAt: number[] = [];
  const start = performance.now();
  const total = Math.round((plan.rate * plan.durationMs) / 1000);
  while (sentAt.length < total) {
    // Catch up to the schedule every few ms (timers are not precise enough for one message each).
    const due = Math.min(total, Math.floor(((performance.now() - start) * plan.rate) / 1000));
    while (sentAt.length < due) {
      const seq = sentAt.length;
      sentAt.push(performance.now());
      send(plan.statusIds[seq % plan.statusIds.length]!, seq);
    }
    await sleep(5);
  }
  return sentAt;
}

/** What one console received against what it should have: counts, leaks, latencies. */
function judgeConsole(consoleSocket: ConsoleSocket, expected: { sentAt: number[]; visible: (seq: number) => boolean }): { received: number; wanted: number; wrong: number; latencies: number[] } {
  const wanted = expected.sentAt.filter((_, seq) => expected.visible(seq)).length;
  const seen = new Set<number>();
  let wrong = 0;
  const latencies: number[] = [];
  for (const r of consoleSocket.received) {
    if (!expected.visible(r.value) || seen.has(r.value) || r.value >= expected.sentAt.length) wrong += 1;
    else latencies.push(r.atMs - expected.sentAt[r.value]!);
    seen.add(r.value);
  }
  return { received: consoleSocket.received.length, wanted, wrong, latencies: latencies.sort((a, b) => a - b) };
}

/** Part 2: the viewer with half the statuses hidden and the manager with no levels, watching one busy exhibit. */
async function levelsRun(options: Options): Promise<Figure[]> {
  const capture = new MailCapture();
  const smtpUrl = await capture.start();
  cleanups.add(() => capture.close());
  const [node] = (await startDeployment(options.levelsOn, { count: 1, smtpUrl })) as [Node];
  const exhibitId = await node.ask<string>({ type: 'createExhibit' });
  const email = (who: string) => `bench-${who}@example.com`;
  await node.ask({ type: 'createUser', email: email('admin'), admin: true });
  const viewerId = await node.ask<string>({ type: 'createUser', email: email('viewer'), admin: false });
  const managerId = await node.ask<string>({ type: 'createUser', email: email('manager'), admin: false });
  await node.ask({ type: 'grant', exhibitId, userId: viewerId, role: 'VIEWER' });
  await node.ask({ type: 'grant', exhibitId, userId: managerId, role: 'MANAGER' });
  const statusIds = statusIdsOf(options.statuses);
  // The odd statuses are hidden to the viewer.
  await node.ask({ type: 'hideStatuses', exhibitId, userId: viewerId, statusIds: statusIds.filter((_, i) => i % 2 === 1) });
  const manifest = { statuses: statusIds.map((id) => ({ id, type: 'Integer', display: `Status ${id}` })) };
  const sdk = await openSdkSocket(node.url, { cookie: await signIn(node.url, email('admin'), BENCH_PASSWORD), exhibitId, manifest });
  const viewer = await openConsoleSocket(node.url, { cookie: await signIn(node.url, email('viewer'), BENCH_PASSWORD), exhibitId });
  const manager = await openConsoleSocket(node.url, { cookie: await signIn(node.url, email('manager'), BENCH_PASSWORD), exhibitId });
  cleanups.add(() => [sdk, viewer, manager].forEach((s) => s.close()));
  log(`${options.levelsOn}: exhibit with ${statusIds.length} statuses, viewer (${statusIds.length / 2} hidden) and manager console sockets subscribed; sending ${options.rate} changes/s for ${options.durationS} s`);
  const sentAt = await sendChanges(sdk.send, { statusIds, rate: options.rate, durationMs: options.durationS * 1000 });
  const sendSeconds = (performance.now() - sentAt[0]!) / 1000;
  const visible = (seq: number) => (seq % statusIds.length) % 2 === 0;
  await waitFor(() => manager.received.length >= sentAt.length, 'every change at the manager console', 60_000).catch((error: Error) => log(error.message));
  const wantedByViewer = sentAt.filter((_, seq) => visible(seq)).length;
  await waitFor(() => viewer.received.length >= wantedByViewer, 'the visible changes at the viewer console', 10_000).catch((error: Error) => log(error.message));
  // Room for a hidden change that would arrive late.
  await sleep(500);
  const v = judgeConsole(viewer, { sentAt, visible });
  const m = judgeConsole(manager, { sentAt, visible: () => true });
  const latency = (r: { latencies: number[] }) => `${millis(quantile(r.latencies, 0.5))} / ${millis(quantile(r.latencies, 0.99))} / ${millis(r.latencies.at(-1) ?? Number.NaN)}`;
  return [
    { label: 'status changes sent by the SDK socket', value: `${sentAt.length} in ${sendSeconds.toFixed(1)} s (${(sentAt.length / sendSeconds).toFixed(0)}/s) over ${statusIds.length} statuses` },
    { label: 'viewer (half hidden): received / visible sent', value: `${v.received} / ${v.wanted}, ${v.wrong} hidden or repeated`, target: 'exactly the visible ones', ok: v.received === v.wanted && v.wrong === 0 },
    { label: 'manager (no levels): received / sent', value: `${m.received} / ${m.wanted}, ${m.wrong} repeated`, target: 'all', ok: m.received === m.wanted && m.wrong === 0 },
    { label: 'latency SDK send → viewer console p50 / p99 / max', value: latency(v) },
    { label: 'latency SDK send → manager console p50 / p99 / max', value: latency(m) },
  ];
}

async function part(name: string, run: () => Promise<Figure[]>): Promise<Figure[]> {
  try {
    return (await run()).map((f) => ({ ...f, label: `${name}: ${f.label}` }));
  } catch (error) {
    log(`${name} failed: ${(error as Error).stack ?? (error as Error).message}`);
    return [{ label: `${name}: run`, value: `FAILED: ${(error as Error).message.split('\n')[0]}`, ok: false }];
  } finally {
    await cleanUp();
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  log(
    `${options.mails} mails to ${options.users} users on ${options.databases.join(', ')} (PostgreSQL with ${options.nodes} instance(s), PGlite with 1); ` +
      `${options.rate} status changes/s for ${options.durationS} s over ${options.statuses} statuses on ${options.levelsOn}`,
  );
  const figures: Figure[] = [];
  for (const database of options.databases) figures.push(...(await part(`mail outbox, ${database}`, () => mailRun(database, options))));
  figures.push(...(await part(`levels, ${options.levelsOn}`, () => levelsRun(options))));
  figures.push({ label: `machine load average (1 min, ${os.cpus().length} cores)`, value: `${os.loadavg()[0]!.toFixed(2)} at the end` });
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`\nPeople and notifications benchmark (${new Date().toISOString()}, ${os.cpus().length} cores)`);
  for (const f of figures) {
    const target = f.target ? ` (target ${f.target})` : '';
    const verdict = f.ok === undefined ? '' : f.ok ? `  ok${target}` : `  MISSED${target}`;
    console.log(`  ${f.label.padEnd(width)}  ${f.value}${verdict}`);
  }
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'people', options, figures }, null, 2));
  if (figures.some((f) => f.ok === false)) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(`[people] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
