import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { describeFailure } from './describe-failure.js';

/**
 * A job that every node runs on a timer against shared rows it claims (the scheduler, the mail
 * outbox): one pass at a time per node, the next `pollMs` after the last ended, and `runNow` for a
 * pass on demand (it waits for the one under way, then runs). A failed pass is logged and never
 * stops the timer or rejects unhandled (which would stop the process).
 */
export type PollingWorker<R> = {
  /** This node's name, as leases record it. */
  node: string;
  runNow: () => Promise<R>;
  /** Stops the timer and waits for the pass under way. */
  stop: () => Promise<void>;
};

/** A node name unique to this process: host, pid and a random part. */
export function nodeName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function startPollingWorker<R>(options: {
  /** Named in the log when a pass fails. */
  what: string;
  pollMs: number;
  logger: Logger;
  node?: string;
  pass: (node: string) => Promise<R>;
}): PollingWorker<R> {
  const node = options.node ?? nodeName();
  let stopped = false;
  /** The pass under way (settled, never rejecting), which the next one waits for. */
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runNow = (): Promise<R> => {
    const previous = running ?? Promise.resolve();
    const pass = previous.then(() => options.pass(node));
    const settled: Promise<void> = pass
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (running === settled) running = null;
      });
    running = settled;
    return pass;
  };
  const loop = () => {
    if (stopped) return;
    runNow()
      .catch((error: unknown) => options.logger.warn({ failure: describeFailure(error) }, `the ${options.what} pass failed`))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.pollMs);
      });
  };
  timer = setTimeout(loop, 0);
  return {
    node,
    runNow,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
