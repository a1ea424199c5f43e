export type CallBatcherOptions<I, R> = {
  /** Calls run together at most (a statement's parameters stay under PostgreSQL's 65,535). */
  maxBatch: number;
  /** Runs one batch; answers one result per call, in the calls' order. */
  run: (items: I[]) => Promise<R[]>;
  /**
   * Failures one call can cause (data the database refuses): a batch failing with one is run
   * again call by call, so that only the call at fault fails.
   */
  isolate?: (error: unknown) => boolean;
};

type Waiting<I, R> = { item: I; resolve: (result: R) => void; reject: (error: unknown) => void };

/**
 * Calls that each wait for their own answer, run together: calls made while the event loop is
 * busy with one turn (a venue's boards dropping at once) go in one batch, begun after that turn;
 * calls made while a batch runs go in the next. Batches run one after another. A caller awaits
 * its own result, so work queued behind it (a board's next message) still waits for its write.
 * A failed batch fails each of its calls with the batch's error, unless `isolate` has its calls
 * run one by one.
 */
export class CallBatcher<I, R> {
  private waiting: Waiting<I, R>[] = [];
  private running = false;

  constructor(private readonly options: CallBatcherOptions<I, R>) {}

  call(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      try {
        await this.runBatch(batch);
      } catch (error) {
        if (batch.length === 1 || !this.options.isolate?.(error)) {
          for (const w of batch) w.reject(error);
          continue;
        }
        for (const w of batch) await this.runBatch([w]).catch(w.reject);
      }
    }
    this.running = false;
  }

  private async runBatch(batch: Waiting<I, R>[]): Promise<void> {
    const results = await this.options.run(batch.map((w) => w.item));
    batch.forEach((w, i) => w.resolve(results[i]!));
  }
}
