// The control-room wall of the hardware benchmark (hardware.bench.ts): console sockets, each
// signed in with the admin's session cookie and subscribed to every board, in a process of their
// own so that their CPU is measured apart from the server and the benchmark. A wall of 100
// consoles at 1,000 prop changes a second over 10,000 heartbeating boards is some 160,000 frames a
// second: no frame is parsed as JSON once subscribed (openSubscribedConsole's onRaw), only searched
// for a few bytes, and latencies go into a histogram (0.1 ms buckets). Driven over the fork IPC
// channel: every message the benchmark sends is answered by one message.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { BENCH_PROP } from './hardware-protocol.js';
import { openSubscribedConsole } from './lib/console-socket.js';
import { LatencyHistogram, mapLimit, type SparseHistogram } from './lib/stats.js';

/** What the benchmark tells a wall process. */
export type ToWall =
  /** Open `consoles` console sockets to `url`, each subscribed to every board named. */
  | { type: 'open'; url: string; cookie: string; hardwareIds: string[]; consoles: number }
  /** Count from zero: bench prop changes per console, their latencies, heartbeats. */
  | { type: 'start' }
  /** The counts so far; with `latency`, the histogram and the event-loop delay since `start` too. */
  | { type: 'count'; latency: boolean }
  | { type: 'close' };

/** What a wall process answers. */
export type FromWall =
  | { type: 'opened' }
  | { type: 'failed'; error: string }
  | { type: 'started' }
  | {
      type: 'count';
      /** Bench prop changes each console saw. */
      props: number[];
      /** Heartbeats (hardware.statusChanged) all its consoles saw. */
      heartbeats: number;
      latency?: SparseHistogram;
      loopDelayP99Ms?: number;
      loopDelayMaxMs?: number;
      /** With `latency`: the worst latency (ms) of the changes sent in each second since `start` (where the stalls were). */
      worstBySecond?: number[];
    };

// What a prop change frame holds (the server's JSON of hardware.propChanged, in any key order).
const PROP_CHANGED = Buffer.from('"type":"hardware.propChanged"');
const BENCH_PERIPHERAL = Buffer.from(`"peripheralId":"${BENCH_PROP.peripheralId}"`);
const BENCH_PROP_NAME = Buffer.from(`"propName":"${BENCH_PROP.propName}"`);
const VALUE = Buffer.from('"value":"');
const HEARTBEAT = Buffer.from('"type":"hardware.statusChanged"');
const QUOTE = 0x22;

const sockets: WebSocket[] = [];
let props: number[] = [];
let heartbeats = 0;
const latency = new LatencyHistogram();
let startedAt = 0n;
let worstBySecond: number[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 1 });

/** The send time a bench prop change frame carries (monotonic ns), null for any other frame. */
function benchSentAt(raw: Buffer): bigint | null {
  if (raw.indexOf(PROP_CHANGED) < 0 || raw.indexOf(BENCH_PERIPHERAL) < 0 || raw.indexOf(BENCH_PROP_NAME) < 0) return null;
  const start = raw.indexOf(VALUE);
  if (start < 0) return null;
  const from = start + VALUE.length;
  const to = raw.indexOf(QUOTE, from);
  if (to <= from) return null;
  for (let i = from; i < to; i++) if (raw[i]! < 0x30 || raw[i]! > 0x39) return null;
  return BigInt(raw.toString('latin1', from, to));
}

async function open(message: Extract<ToWall, { type: 'open' }>): Promise<void> {
  props = new Array<number>(message.consoles).fill(0);
  await mapLimit(Array.from({ length: message.consoles }, (_, i) => i), 4, async (index) => {
    const socket = await openSubscribedConsole({
      url: message.url,
      cookie: message.cookie,
      kind: 'hardwareIds',
      ids: message.hardwareIds,
      batch: 1000,
      onRaw: (raw, receivedAt) => {
        const sentAt = benchSentAt(raw);
        if (sentAt !== null) {
          const ms = Number(receivedAt - sentAt) / 1e6;
          latency.record(ms);
          const second = Number((sentAt - startedAt) / 1_000_000_000n);
          if (second >= 0 && !(ms <= (worstBySecond[second] ?? 0))) worstBySecond[second] = ms;
          props[index]! += 1;
        } else if (raw.indexOf(HEARTBEAT) >= 0) heartbeats += 1;
      },
    });
    sockets.push(socket);
  });
}

function answer(message: FromWall): void {
  process.send?.(message);
}

process.on('message', (message: ToWall) => {
  switch (message.type) {
    case 'open':
      open(message).then(
        () => answer({ type: 'opened' }),
        (error: Error) => answer({ type: 'failed', error: error.message }),
      );
      return;
    case 'start':
      props.fill(0);
      heartbeats = 0;
      latency.reset();
      startedAt = process.hrtime.bigint();
      worstBySecond = [];
      loopDelay.reset();
      loopDelay.enable();
      answer({ type: 'started' });
      return;
    case 'count':
      if (!message.latency) {
        answer({ type: 'count', props, heartbeats });
        return;
      }
      loopDelay.disable();
      answer({ type: 'count', props, heartbeats, latency: latency.toSparse(), loopDelayP99Ms: loopDelay.percentile(99) / 1e6 - 1, loopDelayMaxMs: loopDelay.max / 1e6 - 1, worstBySecond: Array.from(worstBySecond, (ms) => ms ?? 0) });
      return;
    case 'close':
      for (const socket of sockets) socket.close();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
