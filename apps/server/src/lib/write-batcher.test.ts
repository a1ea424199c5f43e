import { afterEach, describe, expect, it, vi } from 'vitest';
import { WriteBatcher } from './write-batcher.js';

type Write = { key: string; value: number };

/** A batcher whose store records each batch, and can be held open to show batches never overlap. */
function recordingBatcher(options: { flushMs?: number; maxWaiting?: number } = {}) {
  const batches: Write[][] = [];
  let storing = 0;
  let overlapped = false;
  let hold: Promise<void> = Promise.resolve();
  const batcher = new WriteBatcher<Write>({
    flushMs: options.flushMs ?? 100,
    maxWaiting: options.maxWaiting,
    store: async (batch) => {
      storing += 1;
      if (storing > 1) overlapped = true;
      await hold;
      batches.push(batch);
      storing -= 1;
    },
  });
  const add = (key: string, value: number) => batcher.add(key, { key, value });
  return { batcher, batches, add, overlapped: () => overlapped, holdWith: (promise: Promise<void>) => (hold = promise) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WriteBatcher', () => {
  it('keeps the newest write per key and stores them together when the timer fires', async () => {
    vi.useFakeTimers();
    const { batches, add } = recordingBatcher({ flushMs: 100 });
    add('a', 1);
    add('b', 1);
    add('a', 2);
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([
      [
        { key: 'a', value: 2 },
        { key: 'b', value: 1 },
      ],
    ]);
  });

  it('stores at once when maxWaiting writes wait, without waiting for the timer', async () => {
    vi.useFakeTimers();
    const { batcher, batches, add } = recordingBatcher({ flushMs: 10_000, maxWaiting: 3 });
    add('a', 1);
    add('b', 1);
    add('b', 2);
    expect(batches).toEqual([]);
    add('c', 1);
    await batcher.flush();
    expect(batches).toEqual([
      [
        { key: 'a', value: 1 },
        { key: 'b', value: 2 },
        { key: 'c', value: 1 },
      ],
    ]);
  });

  it('stores one batch after another, never two at once, and flush waits for every batch before it', async () => {
    const { batcher, batches, add, overlapped, holdWith } = recordingBatcher();
    let release!: () => void;
    holdWith(new Promise<void>((resolve) => (release = resolve)));
    add('a', 1);
    const first = batcher.flush();
    // The first batch is taken when its store begins (then held open).
    await new Promise((resolve) => setImmediate(resolve));
    add('a', 2);
    const second = batcher.flush();
    expect(batches).toEqual([]);
    release();
    await second;
    expect(batches).toEqual([[{ key: 'a', value: 1 }], [{ key: 'a', value: 2 }]]);
    await first;
    expect(overlapped()).toBe(false);
  });

  it('goes on storing after a batch whose store failed', async () => {
    const stored: number[][] = [];
    const batcher = new WriteBatcher<number>({
      flushMs: 100,
      store: async (batch) => {
        if (batch.includes(13)) throw new Error('refused');
        stored.push(batch);
      },
    });
    batcher.add('x', 13);
    await expect(batcher.flush()).rejects.toThrow('refused');
    batcher.add('x', 14);
    await batcher.flush();
    expect(stored).toEqual([[14]]);
  });

  it('lets a caller merge into the write waiting under a key (counts)', async () => {
    const { batcher, batches } = recordingBatcher();
    for (let i = 0; i < 3; i++) batcher.add('a', { key: 'a', value: (batcher.peek('a')?.value ?? 0) + 1 });
    await batcher.flush();
    expect(batches).toEqual([[{ key: 'a', value: 3 }]]);
    expect(batcher.peek('a')).toBeUndefined();
  });

  it('answers at once when nothing waits', async () => {
    const { batcher, batches } = recordingBatcher();
    await batcher.flush();
    expect(batches).toEqual([]);
  });

  it('keeps every appended write, in order, counted towards the batch size', async () => {
    const { batcher, batches } = recordingBatcher({ maxWaiting: 3 });
    batcher.append({ key: 'line', value: 1 });
    batcher.append({ key: 'line', value: 2 });
    batcher.append({ key: 'line', value: 3 });
    batcher.append({ key: 'line', value: 4 });
    await batcher.flush();
    expect(batches.map((batch) => batch.map((w) => w.value))).toEqual([[1, 2, 3], [4]]);
  });

  it('joins a write added before its batch began to that batch (the newest per key)', async () => {
    const { batcher, batches, add } = recordingBatcher();
    add('a', 1);
    const first = batcher.flush();
    add('a', 2);
    add('b', 1);
    await Promise.all([first, batcher.flush()]);
    expect(batches).toEqual([
      [
        { key: 'a', value: 2 },
        { key: 'b', value: 1 },
      ],
    ]);
  });

  describe('with retry, while the database is away', () => {
    const unavailable = () => Object.assign(new Error('connect ECONNREFUSED'), { transient: true });
    function failingBatcher(failFirst: number, maxWaiting?: number) {
      const stored: Write[][] = [];
      const held: number[] = [];
      let resumedAfter = 0;
      let attempts = 0;
      const batcher = new WriteBatcher<Write>({
        flushMs: 100,
        maxWaiting,
        store: async (batch) => {
          attempts += 1;
          if (attempts <= failFirst) throw unavailable();
          if (batch.some((w) => w.value < 0)) throw new Error('refused');
          stored.push(batch);
        },
        retry: { when: (error) => (error as { transient?: boolean }).transient === true, onHeld: (n) => held.push(n), onResumed: (n) => (resumedAfter = n) },
      });
      return { batcher, stored, held, resumedAfter: () => resumedAfter, attempts: () => attempts };
    }

    it('puts a failed batch back and stores it once the store works again, in order, reporting the outage once', async () => {
      vi.useFakeTimers();
      const { batcher, stored, held, resumedAfter } = failingBatcher(3);
      batcher.append({ key: 'line', value: 1 });
      batcher.append({ key: 'line', value: 2 });
      await batcher.flush();
      expect(stored).toEqual([]);
      batcher.append({ key: 'line', value: 3 });
      expect(batcher.size).toBe(3);
      // Backoff: 250 ms, 500 ms, then 1 s; the fourth attempt goes through.
      await vi.advanceTimersByTimeAsync(250 + 500);
      expect(stored).toEqual([]);
      await vi.advanceTimersByTimeAsync(999);
      expect(stored).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(stored.flat().map((w) => w.value)).toEqual([1, 2, 3]);
      expect(held).toEqual([2]);
      expect(resumedAfter()).toBe(3);
      expect(batcher.size).toBe(0);
    });

    it('never lets a write put back overwrite a newer write of its key', async () => {
      vi.useFakeTimers();
      const { batcher, stored } = failingBatcher(1);
      batcher.add('prop', { key: 'prop', value: 1 });
      batcher.add('other', { key: 'other', value: 1 });
      await batcher.flush();
      batcher.add('prop', { key: 'prop', value: 2 });
      await vi.advanceTimersByTimeAsync(250);
      expect(stored).toEqual([
        [
          { key: 'prop', value: 2 },
          { key: 'other', value: 1 },
        ],
      ]);
    });

    it('merges a write put back with the newer write of its key when told how (a board’s prop values)', async () => {
      vi.useFakeTimers();
      type Board = { board: string; props: Record<string, number> };
      const stored: Board[][] = [];
      let attempts = 0;
      let release = () => {};
      let begun = () => {};
      const failing = new Promise<void>((resolve) => (release = resolve));
      const storeBegun = new Promise<void>((resolve) => (begun = resolve));
      const batcher = new WriteBatcher<Board>({
        flushMs: 100,
        store: async (batch) => {
          attempts += 1;
          if (attempts === 1) {
            begun();
            await failing;
            throw unavailable();
          }
          stored.push(batch.map((b) => ({ board: b.board, props: { ...b.props } })));
        },
        merge: (older, newer) => ({ board: newer.board, props: { ...older.props, ...newer.props } }),
        retry: { when: (error) => (error as { transient?: boolean }).transient === true },
      });
      batcher.add('b1', { board: 'b1', props: { a: 1, b: 1 } });
      batcher.add('b2', { board: 'b2', props: { a: 1 } });
      const flushed = batcher.flush();
      await storeBegun;
      // While the first batch is being stored (and fails), b1's prop a changes again.
      batcher.add('b1', { board: 'b1', props: { a: 2 } });
      release();
      await flushed;
      await vi.advanceTimersByTimeAsync(250);
      expect(stored).toEqual([
        [
          { board: 'b1', props: { a: 2, b: 1 } },
          { board: 'b2', props: { a: 1 } },
        ],
      ]);
    });

    it('drops a batch the store refuses (not retryable) and goes on with the others', async () => {
      const { batcher, stored } = failingBatcher(0);
      batcher.add('bad', { key: 'bad', value: -1 });
      await expect(batcher.flush()).rejects.toThrow('refused');
      batcher.add('good', { key: 'good', value: 1 });
      await batcher.flush();
      expect(stored).toEqual([[{ key: 'good', value: 1 }]]);
    });

    it('gives up at finish after its deadline and answers how many writes were lost', async () => {
      const { batcher, attempts } = failingBatcher(1_000_000);
      batcher.add('a', { key: 'a', value: 1 });
      batcher.add('b', { key: 'b', value: 1 });
      expect(await batcher.finish(300)).toBe(2);
      expect(attempts()).toBeGreaterThan(1);
      expect(batcher.size).toBe(0);
    });

    it('finish stores everything when the store works', async () => {
      const { batcher, stored } = failingBatcher(1, 2);
      for (let i = 0; i < 5; i++) batcher.append({ key: 'line', value: i });
      expect(await batcher.finish(5000)).toBe(0);
      expect(stored.flat().map((w) => w.value)).toEqual([0, 1, 2, 3, 4]);
      expect(stored.every((batch) => batch.length <= 2)).toBe(true);
    });
  });
});
