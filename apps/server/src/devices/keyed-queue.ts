const settled = Promise.resolve();

/**
 * Work queued by key (a board, an exhibit) runs one piece after another per key, in the order it
 * was queued, whether the piece before succeeded or not; different keys run side by side. A key
 * with nothing queued holds no memory.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Queues `work` after what is queued under `key`; answers its outcome (a failure does not stop the queue). */
  run(key: string, work: () => Promise<void>): Promise<void> {
    const next = (this.tails.get(key) ?? settled).then(work);
    const release = () => this.release(key, tail);
    const tail: Promise<void> = next.then(release, release);
    this.tails.set(key, tail);
    return next;
  }

  /** Settles once everything queued so far has run. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }

  private release(key: string, tail: Promise<void>): void {
    if (this.tails.get(key) === tail) this.tails.delete(key);
  }
}
