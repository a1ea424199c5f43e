export type WriteBatcherOptions<W> = {
  /** How long writes gather before they are stored together, in ms. */
  flushMs: number;
  /** With this many writes waiting they are stored at once, without waiting for the timer. */
  maxWaiting?: number;
  /**
   * Stores one batch. Batches are stored one after another, never two at once; a failed batch
   * (which `store` should log itself) does not stop the ones after it.
   */
  store: (batch: W[]) => Promise<void>;
};

/**
 * Gathers frequent writes so a busy stream costs one statement per batch, stored every `flushMs`
 * or as soon as `maxWaiting` writes wait. A write added under a key replaces the one waiting
 * there (a board's heartbeats, its prop values: only the newest matters); an appended write
 * (log lines) is kept, in order. Adding is synchronous and allocates nothing of its own.
 */
export class WriteBatcher<W> {
  /** Keyed writes under their string key, appended ones under a number: one map keeps their order. */
  private readonly waiting = new Map<string | number, W>();
  private appended = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly onTimer = () => void this.flush();

  constructor(private readonly options: WriteBatcherOptions<W>) {}

  /** Queues a write under its key, replacing the one waiting there. */
  add(key: string, write: W): void {
    this.put(key, write);
  }

  /** Queues a write after every one waiting, replacing none. */
  append(write: W): void {
    this.put(this.appended++, write);
  }

  /** The write waiting under a key, for a caller that merges into it (counts). */
  peek(key: string): W | undefined {
    return this.waiting.get(key);
  }

  private put(key: string | number, write: W): void {
    this.waiting.set(key, write);
    if (this.options.maxWaiting !== undefined && this.waiting.size >= this.options.maxWaiting) void this.flush();
    else this.timer ??= setTimeout(this.onTimer, this.options.flushMs);
  }

  /** Stores what waits now; settles when it (and every batch before it) is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.waiting.size) return this.flushing;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    const stored = this.flushing.then(() => this.options.store(batch));
    this.flushing = stored.catch(() => undefined);
    return stored;
  }
}
