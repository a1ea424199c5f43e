import type { Logger } from 'pino';
import { describeFailure } from '../lib/describe-failure.js';
import { KeyedQueue } from './keyed-queue.js';

/**
 * Each board's messages (and the gateway's own work on a board: a silence timeout, a lost
 * connection) are applied one after another, in the order they came; a failure is logged and
 * the board's next message goes on.
 */
export class BoardQueue {
  private readonly queue = new KeyedQueue();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  enqueue(hardwareId: string, work: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.run(hardwareId, work).catch((error: unknown) => this.logger.error({ failure: describeFailure(error), hardwareId }, 'hardware message failed'));
  }

  /** Takes no more work (the gateway is closing). */
  stop(): void {
    this.stopped = true;
  }

  /** Settles once the work queued so far has run. */
  drain(): Promise<void> {
    return this.queue.drain();
  }
}
