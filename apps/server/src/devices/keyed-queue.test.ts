import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs the work of one key in the order it was queued, each after the one before settled', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let release!: () => void;
    void queue.run('a', async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('a1 end');
    });
    void queue.run('a', async () => {
      log.push('a2');
    });
    await tick();
    expect(log).toEqual(['a1 start']);
    release();
    await queue.drain();
    expect(log).toEqual(['a1 start', 'a1 end', 'a2']);
  });

  it('runs different keys side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    void queue.run('a', () => new Promise<void>(() => log.push('a blocks')));
    void queue.run('b', async () => {
      log.push('b runs');
    });
    await tick();
    expect(log).toEqual(['a blocks', 'b runs']);
  });

  it('answers each piece of work’s outcome, and a failure does not stop the key’s next work', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => undefined);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBeUndefined();
  });

  it('does not run work queued before the key’s previous work settled, even when it failed', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let fail!: (error: Error) => void;
    const first = queue.run('a', () => new Promise<void>((_resolve, reject) => (fail = reject)));
    void queue.run('a', async () => {
      log.push('second');
    });
    await tick();
    expect(log).toEqual([]);
    fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await queue.drain();
    expect(log).toEqual(['second']);
  });
});
