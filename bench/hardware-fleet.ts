// A board-fleet process for the hardware benchmark: many simulated boards (the
// @plinth/hardware-sim library, one MQTT connection each) in one Node process, driven by its
// parent over the fork IPC channel (see hardware-protocol.ts).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SimulatedBoard } from '@plinth/hardware-sim';
import { BENCH_PROP, type FleetBoard, type FromFleet, type ToFleet } from './hardware-protocol.js';

const CONNECT_TIMEOUT_MS = 20_000;

const boards: SimulatedBoard[] = [];
const errors = new Set<string>();
let ready = 0;
let failed = 0;
let disconnects = 0;
let reconnects = 0;
let closing = false;

function report(message: FromFleet): void {
  process.send?.(message);
}

function progress(): void {
  const connected = boards.reduce((n, b) => n + (b.connected ? 1 : 0), 0);
  report({ type: 'progress', ready, failed, connected, disconnects, reconnects, errors: [...errors].slice(0, 5) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts one board; a start that neither connects nor fails in time counts as failed. */
async function startBoard(url: string, item: FleetBoard, options: { heartbeatMs: number; timeoutMs: number }): Promise<void> {
  const { heartbeatMs, timeoutMs } = options;
  const board = new SimulatedBoard({ url, hardwareId: item.id, token: item.token, heartbeatMs, reconnectMs: 2000 });
  let started = false;
  board.on('event', (event) => {
    if (event.kind === 'disconnected') disconnects += 1;
    if (event.kind === 'connected' && started) reconnects += 1;
    if (event.kind === 'refused') errors.add(event.reason);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no CONNACK and announce within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([board.start(), timeout]);
    started = true;
    boards.push(board);
    ready += 1;
  } catch (error) {
    failed += 1;
    errors.add((error as Error).message);
    await board.stop().catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens the boards' connections at a steady pace with a bound on how many connect at once. */
async function connect(message: Extract<ToFleet, { type: 'connect' }>): Promise<void> {
  const gapMs = 1000 / message.perSecond;
  const startedAt = performance.now();
  const running = new Set<Promise<void>>();
  for (const [n, item] of message.boards.entries()) {
    if (closing) return;
    const wait = startedAt + n * gapMs - performance.now();
    if (wait > 0) await sleep(wait);
    while (running.size >= message.inFlight) await Promise.race(running);
    const task = startBoard(message.url, item, { heartbeatMs: message.heartbeatMs, timeoutMs: message.timeoutMs ?? CONNECT_TIMEOUT_MS }).finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
}

let next = 0;
/** The next connected board, in turn; null when none is connected. */
function nextBoard(): SimulatedBoard | null {
  for (let tries = 0; tries < boards.length; tries++) {
    const board = boards[next++ % boards.length]!;
    if (board.connected) return board;
  }
  return null;
}

function changeBenchProp(board: SimulatedBoard): void {
  void board.changeProp(BENCH_PROP.peripheralId, BENCH_PROP.propName, process.hrtime.bigint().toString());
}

/** The open-loop prop stream: message k is due at startAt + k / perSecond. */
async function sendProps(message: Extract<ToFleet, { type: 'props' }>): Promise<void> {
  const { startAt, durationMs, perSecond } = message;
  const total = Math.round((durationMs / 1000) * perSecond);
  let sent = 0;
  let skipped = 0;
  let lateMs = 0;
  if (startAt > Date.now()) await sleep(startAt - Date.now());
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const origin = performance.now() - (Date.now() - startAt);
  for (let k = 0; k < total && !closing; ) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - origin) * perSecond) / 1000) + 1);
    for (; k < due; k++) {
      lateMs = Math.max(lateMs, now - (origin + (k * 1000) / perSecond));
      const board = nextBoard();
      if (!board) {
        skipped += 1;
        continue;
      }
      changeBenchProp(board);
      sent += 1;
    }
    await sleep(Math.max(1, origin + (k * 1000) / perSecond - performance.now()));
  }
  loopDelay.disable();
  report({ type: 'sent', sent, skipped, lateMs, loopDelayP99Ms: loopDelay.percentile(99) / 1e6 - 1, loopDelayMaxMs: loopDelay.max / 1e6 - 1 });
}

async function close(): Promise<void> {
  closing = true;
  // Goodbyes in batches: thousands of simultaneous ones only measure the burst.
  for (let i = 0; i < boards.length; i += 500) {
    await Promise.all(boards.slice(i, i + 500).map((b) => b.stop().catch(() => undefined)));
  }
  report({ type: 'closed' });
  process.exit(0);
}

const progressTimer = setInterval(progress, 500);
progressTimer.unref();

process.on('message', (message: ToFleet) => {
  switch (message.type) {
    case 'connect':
      void connect(message).then(progress);
      return;
    case 'props':
      void sendProps(message);
      return;
    case 'close':
      void close();
      return;
  }
});
process.on('disconnect', () => void close());
