import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/errors.js';
import { describeFailure } from '../lib/describe-failure.js';
import { KeyedQueue } from './keyed-queue.js';

/**
 * Attempts at one piece of a board's work while the database cannot be reached or its pool has no
 * connection free in time (a thousand boards announcing at once after a broker restart): with
 * the waits between them about 8 s, on top of the pool's own wait at each attempt.
 */
export const BOARD_WORK_ATTEMPTS = 6;
const RETRY_FIRST_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each board's messages (and the gateway's own work on a board: a silence timeout, a lost
 * connection) are applied one after another, in the order they came. A piece that fails because
 * the database is away is tried again in its place, the board's later messages waiting behind
 * it; any other failure is logged and the board's next message goes on.
 */
export class BoardQueue {
  private readonly queue = new KeyedQueue();
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly retryFirstMs = RETRY_FIRST_MS,
  ) {}

  enqueue(hardwareId: string, work: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.run(hardwareId, () => this.attempt(work)).catch((error: unknown) => this.logger.error({ failure: describeFailure(error), hardwareId }, 'hardware message failed'));
  }

  private async attempt(work: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await work();
        return;
      } catch (error) {
        if (this.stopped || attempt >= BOARD_WORK_ATTEMPTS || !isDatabaseUnavailable(error)) throw error;
        await sleep(this.retryFirstMs * 2 ** (attempt - 1));
      }
    }
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
