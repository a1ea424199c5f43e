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

  /**
   * Queues a piece of the board's work. When nothing of the board's is queued it starts at once,
   * and work that finishes without waiting (answers undefined: a heartbeat or prop change of a
   * board and prop this node knows) leaves nothing in the queue: no promise is made for it.
   */
  enqueue(hardwareId: string, work: () => Promise<void> | void): void {
    if (this.stopped) return;
    if (!this.queue.isIdle(hardwareId)) {
      this.run(hardwareId, () => this.attempt(work));
      return;
    }
    const first = this.startNow(hardwareId, work);
    if (!first) return;
    // Its first attempt is under way: later messages of the board wait behind it in the queue.
    first.catch(() => undefined); // handled by attempt, a turn later
    this.run(hardwareId, () => this.attempt(work, first));
  }

  /** Starts `work`; answers what is still under way (nothing when it finished, or threw: logged). */
  private startNow(hardwareId: string, work: () => Promise<void> | void): Promise<void> | undefined {
    try {
      return work() ?? undefined;
    } catch (error) {
      this.failed(hardwareId, error);
      return undefined;
    }
  }

  private run(hardwareId: string, attempt: () => Promise<void>): void {
    this.queue.run(hardwareId, attempt).catch((error: unknown) => this.failed(hardwareId, error));
  }

  private failed(hardwareId: string, error: unknown): void {
    this.logger.error({ failure: describeFailure(error), hardwareId }, 'hardware message failed');
  }

  /** Runs `work` until it succeeds or fails for good; `first` is its first attempt when already under way. */
  private async attempt(work: () => Promise<void> | void, first?: Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await (attempt === 1 && first ? first : work());
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
