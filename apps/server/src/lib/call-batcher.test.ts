import { describe, expect, it } from 'vitest';
import { CallBatcher } from './call-batcher.js';

class Refused extends Error {}

/** A batcher that doubles numbers, records its batches, refuses 13 and can be held open. */
function doubling(maxBatch = 100) {
  const batches: number[][] = [];
  let running = 0;
  let overlapped = false;
  let release: () => void = () => undefined;
  let hold: Promise<void> | null = null;
  const batcher = new CallBatcher<number, number>({
    maxBatch,
    isolate: (error) => error instanceof Refused,
    run: async (items) => {
      running += 1;
      if (running > 1) overlapped = true;
      batches.push(items);
      if (hold) await hold;
      running -= 1;
      if (items.includes(13)) throw new Refused('13 refused');
      if (items.includes(-1)) throw new Error('database away');
      return items.map((n) => n * 2);
    },
  });
  const holdNext = () => {
    hold = new Promise<void>((resolve) => (release = resolve));
  };
  const open = () => {
    hold = null;
    release();
  };
  return { batcher, batches, holdNext, open, overlapped: () => overlapped };
}

describe('CallBatcher', () => {
  it('runs the calls of one turn as one batch and answers each caller its own result', async () => {
    const { batcher, batches } = doubling();
    const results = await Promise.all([1, 2, 3].map((n) => batcher.call(n)));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('puts calls made while a batch runs in the next batch, never two batches at once', async () => {
    const { batcher, batches, holdNext, open, overlapped } = doubling();
    holdNext();
    const first = batcher.call(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const later = [batcher.call(2), batcher.call(3)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([[1]]);
    open();
    expect(await Promise.all([first, ...later])).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(overlapped()).toBe(false);
  });

  it('splits a batch larger than its most', async () => {
    const { batcher, batches } = doubling(2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.call(n)))).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every call of a failed batch, and runs the next batch', async () => {
    const { batcher } = doubling();
    const failed = [batcher.call(1), batcher.call(-1)];
    await expect(failed[0]).rejects.toThrow('database away');
    await expect(failed[1]).rejects.toThrow('database away');
    expect(await batcher.call(4)).toBe(8);
  });

  it('runs a batch refused for one call again call by call: only that call fails', async () => {
    const { batcher, batches } = doubling();
    const calls = [batcher.call(1), batcher.call(13), batcher.call(3)];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([2, '13 refused', 6]);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
  });
});
