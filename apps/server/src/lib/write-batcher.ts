export type WriteBatcherOptions<W> = {
  /** How long writes gather before they are stored together, in ms. */
  flushMs: number;
  /** With this many writes waiting they are stored at once, without waiting for the timer; also a batch's largest size. */
  maxWaiting?: number;
  /**
   * Stores one batch. Batches are stored one after another, never two at once; a failed batch
   * (which `store` should log itself) does not stop the ones after it.
   */
  store: (batch: W[]) => Promise<void>;
  /**
   * Joins a write put back after a failed store with the newer write of its key (a board's
   * waiting prop values: the newer holds only what changed since). Without it the newer replaces it.
   */
  merge?: (older: W, newer: W) => W;
  /**
   * Failures worth waiting out (the database lost and back): a batch whose store throws one of
   * them is put back, behind nothing and under newer writes of the same key, and stored again
   * with backoff until it goes through. Without it, a failed batch is gone.
   */
  retry?: {
    when: (error: unknown) => boolean;
    /** The first failure of an outage: how many writes are now held. */
    onHeld?: (waiting: number, error: unknown) => void;
    /** The first success after an outage: how many writes are waiting (the held ones go next). */
    onResumed?: (failures: number) => void;
  };
};

/** Waits between attempts while the store keeps failing (retry), in ms. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * Gathers frequent writes so a busy stream costs one statement per batch, stored every `flushMs`
 * or as soon as `maxWaiting` writes wait. A write added under a key replaces the one waiting
 * there (a board's heartbeats, its prop values: only the newest matters); an appended write
 * (log lines) is kept, in order. A batch is taken when its store begins, so a write that waits
 * behind a slow batch joins the next one, and one put back after a failure never overwrites a
 * newer write of its key. Adding is synchronous and allocates nothing of its own.
 *
 * A batcher holds keyed writes or appended ones (one that held both would store the keyed first).
 */
export class WriteBatcher<W> {
  /** Keyed writes under their key, in the order their keys first came. */
  private waiting = new Map<string, W>();
  /**
   * Appended writes, in order: a list, where a map under numbered keys cost a hash entry for each
   * (log lines come one for each prop change: 4% of a saturated server, docs/performance.md).
   */
  private lines: W[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** A store chained behind the one under way and not begun yet: later flushes join it. */
  private queued: Promise<void> | null = null;
  /** Consecutive failed attempts (retry); 0 while the store works. */
  private failures = 0;
  private readonly onTimer = () => void this.flush().catch(() => undefined);

  constructor(private readonly options: WriteBatcherOptions<W>) {}

  /** Queues a write under its key, replacing the one waiting there. */
  add(key: string, write: W): void {
    this.waiting.set(key, write);
    this.added();
  }

  /** Queues a write after every one waiting, replacing none. */
  append(write: W): void {
    this.lines.push(write);
    this.added();
  }

  /** The write waiting under a key, for a caller that merges into it (counts, a board's prop values). */
  peek(key: string): W | undefined {
    return this.waiting.get(key);
  }

  /** How many writes wait (held through an outage included). */
  get size(): number {
    return this.waiting.size + this.lines.length;
  }

  private added(): void {
    // While the store fails, the retry timer alone decides when to try again.
    if (this.failures) return;
    if (this.options.maxWaiting !== undefined && this.size >= this.options.maxWaiting) void this.flush().catch(() => undefined);
    else this.timer ??= setTimeout(this.onTimer, this.options.flushMs);
  }

  /** Stores what waits now; settles when it (and every batch before it) is stored, or put back to retry. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued) return this.queued;
    if (!this.size) return this.flushing;
    const run = this.flushing.then(() => {
      this.queued = null;
      return this.storeWaiting();
    });
    this.queued = run;
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /**
   * Stores until what waits now is written, trying again for at most `withinMs` while the store
   * fails with a retryable error; answers how many writes could not be stored (and are dropped).
   */
  async finish(withinMs: number): Promise<number> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      await this.flush().catch(() => undefined);
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (!this.size) return 0;
      const left = deadline - Date.now();
      if (left <= 0) {
        const lost = this.size;
        this.waiting.clear();
        this.lines = [];
        return lost;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MIN_MS, left)));
    }
  }

  /** Stores the writes waiting when it begins, a batch of at most maxWaiting at a time. */
  private async storeWaiting(): Promise<void> {
    let budget = this.size;
    while (budget > 0 && this.size) {
      const batch = this.take(Math.min(budget, this.options.maxWaiting ?? budget));
      budget -= batch.keyed.size + batch.lines.length;
      try {
        await this.options.store(batch.keyed.size ? [...batch.keyed.values(), ...batch.lines] : batch.lines);
      } catch (error) {
        if (!this.options.retry?.when(error)) {
          // This batch is gone; what still waits goes with the next timer.
          if (this.size) this.timer ??= setTimeout(this.onTimer, this.options.flushMs);
          throw error;
        }
        this.putBack(batch);
        if (this.failures++ === 0) this.options.retry.onHeld?.(this.size, error);
        const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(this.failures - 1, 10));
        this.timer = setTimeout(this.onTimer, wait);
        return;
      }
      if (this.failures) {
        this.options.retry?.onResumed?.(this.failures);
        this.failures = 0;
        // What waited out the failure goes next, without waiting for a timer.
        if (this.size) this.timer ??= setTimeout(this.onTimer, 0);
      }
    }
  }

  /** The first `count` writes waiting, in order (keyed, then appended); taking all of either takes it whole. */
  private take(count: number): Batch<W> {
    let keyed: Map<string, W>;
    if (count >= this.waiting.size) {
      keyed = this.waiting;
      this.waiting = new Map();
    } else {
      keyed = new Map();
      for (const [key, write] of this.waiting) {
        if (keyed.size >= count) break;
        keyed.set(key, write);
      }
      for (const key of keyed.keys()) this.waiting.delete(key);
    }
    const rest = count - keyed.size;
    let lines: W[];
    if (rest >= this.lines.length) {
      lines = this.lines;
      this.lines = [];
    } else lines = this.lines.splice(0, rest);
    return { keyed, lines };
  }

  /** A failed batch goes back first; a key written again meanwhile keeps its newer write (merged, with `merge`). */
  private putBack(batch: Batch<W>): void {
    const newer = this.waiting;
    const { merge } = this.options;
    this.waiting = batch.keyed;
    for (const [key, write] of newer) {
      const older = batch.keyed.get(key);
      batch.keyed.set(key, merge && older !== undefined ? merge(older, write) : write);
    }
    // A new list: the failed store was handed the batch's own, and lines added later must not change it.
    if (batch.lines.length) this.lines = batch.lines.concat(this.lines);
  }
}

/** Writes taken to be stored together, kept apart to be put back as they were. */
type Batch<W> = { keyed: Map<string, W>; lines: W[] };
