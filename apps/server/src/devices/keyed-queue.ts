const settled = Promise.resolve();

/**
 * Work queued by key (a board, an exhibit) runs one piece after another per key, in the order it
 * was queued, whether the piece before succeeded or not; different keys run side by side, at most
 * `concurrency` of them at once when it is given (the others wait their turn in order). A key
 * with nothing queued holds no memory.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency = Infinity) {}

  /** Queues `work` after what is queued under `key`; answers its outcome (a failure does not stop the queue). */
  run(key: string, work: () => Promise<void>): Promise<void> {
    const next = (this.tails.get(key) ?? settled).then(this.concurrency === Infinity ? work : () => this.limited(work));
    const release = () => this.release(key, tail);
    const tail: Promise<void> = next.then(release, release);
    this.tails.set(key, tail);
    return next;
  }

  /** Whether nothing is queued or running under `key`. */
  isIdle(key: string): boolean {
    return !this.tails.has(key);
  }

  /** Settles once everything queued so far has run. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }

  /** Runs `work` once fewer than `concurrency` pieces are running. */
  private async limited(work: () => Promise<void>): Promise<void> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      await work();
    } finally {
      // The slot passes straight to the next waiting piece, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  private release(key: string, tail: Promise<void>): void {
    if (this.tails.get(key) === tail) this.tails.delete(key);
  }
}
