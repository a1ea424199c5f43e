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

  it('runs at most `concurrency` keys at once, the others in the order they were queued, each key still in order', async () => {
    const queue = new KeyedQueue(2);
    const log: string[] = [];
    const releases = new Map<string, () => void>();
    const piece = (name: string) => () =>
      new Promise<void>((resolve) => {
        log.push(name);
        releases.set(name, resolve);
      });
    for (const name of ['a1', 'b1', 'c1', 'a2', 'd1']) void queue.run(name[0]!, piece(name));
    await tick();
    expect(log).toEqual(['a1', 'b1']);
    releases.get('a1')!();
    await tick();
    // c1 had waited for a slot; a2, ready only now that a1 is done, waits behind d1.
    expect(log).toEqual(['a1', 'b1', 'c1']);
    releases.get('b1')!();
    await tick();
    expect(log).toEqual(['a1', 'b1', 'c1', 'd1']);
    releases.get('c1')!();
    await tick();
    expect(log).toEqual(['a1', 'b1', 'c1', 'd1', 'a2']);
    releases.get('a2')!();
    releases.get('d1')!();
    await queue.drain();
  });

  it('gives a slot back when a piece fails', async () => {
    const queue = new KeyedQueue(1);
    await expect(queue.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run('b', async () => undefined)).resolves.toBeUndefined();
  });
});
