// A load-generator process for the exhibit benchmark: many @plinth/sdk exhibits in one Node
// process, driven by its parent over the fork IPC channel (see load-protocol.ts).
import { Exhibit } from '@plinth/sdk';
import type { FromGenerator, LoadExhibit, ToGenerator } from './load-protocol.js';

const exhibits: { exhibit: Exhibit; index: number }[] = [];
const timers: NodeJS.Timeout[] = [];
const errors = new Set<string>();
let ready = 0;
let failed = 0;
let disconnects = 0;
let reconnects = 0;

function report(message: FromGenerator): void {
  process.send?.(message);
}

function progress(): void {
  report({ type: 'progress', ready, failed, disconnects, reconnects, errors: [...errors].slice(0, 5) });
}

/** Opens the exhibits' connections at a steady pace (a burst would only measure the burst). */
async function connect(serverUrl: string, list: LoadExhibit[], perSecond: number, manifest: object): Promise<void> {
  const gapMs = 1000 / perSecond;
  const startedAt = performance.now();
  for (const [n, item] of list.entries()) {
    const wait = startedAt + n * gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const exhibit = new Exhibit({ serverUrl, exhibitId: item.id, token: item.token, manifest, reconnectMinMs: 1000 });
    exhibit.on('error', (error) => errors.add(error.message));
    exhibit.on('disconnected', () => {
      disconnects += 1;
    });
    exhibit.on('connected', () => {
      reconnects += 1;
    });
    exhibit.ready().then(
      () => {
        ready += 1;
      },
      (error: Error) => {
        failed += 1;
        errors.add(error.message);
      },
    );
    exhibits.push({ exhibit, index: item.index });
  }
}

/** Every exhibit sends `statusId` = the monotonic clock in ns, every interval, phase-shifted by its rank. */
function send(message: Extract<ToGenerator, { type: 'send' }>): void {
  const { statusId, startAt, intervalMs, durationMs, total } = message;
  const endAt = startAt + durationMs;
  let sent = 0;
  let sentOffline = 0;
  let running = exhibits.length;
  for (const { exhibit, index } of exhibits) {
    const firstAt = startAt + (index / total) * intervalMs;
    const tick = () => {
      if (Date.now() >= endAt) {
        clearInterval(repeat);
        running -= 1;
        if (running === 0) report({ type: 'sent', sent, sentOffline });
        return;
      }
      if (exhibit.isConnected) sent += 1;
      else sentOffline += 1;
      // The console compares this with its own reading of the same clock (CLOCK_MONOTONIC).
      exhibit.setStatus(statusId, process.hrtime.bigint().toString());
    };
    let repeat: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      repeat = setInterval(tick, intervalMs);
      timers.push(repeat);
      tick();
    }, Math.max(0, firstAt - Date.now()));
    timers.push(first);
  }
  if (running === 0) report({ type: 'sent', sent, sentOffline });
}

function closeAll(): void {
  for (const timer of timers) clearTimeout(timer);
  for (const { exhibit } of exhibits) exhibit.close();
  report({ type: 'closed' });
  // Let the close frames and the IPC message go out.
  setTimeout(() => process.exit(0), 500);
}

const progressTimer = setInterval(progress, 1000);
progressTimer.unref();

process.on('message', (message: ToGenerator) => {
  switch (message.type) {
    case 'connect':
      void connect(message.serverUrl, message.exhibits, message.perSecond, message.manifest);
      return;
    case 'send':
      send(message);
      return;
    case 'close':
      closeAll();
      return;
  }
});
// The parent went away: do not linger with open sockets.
process.on('disconnect', () => process.exit(0));
