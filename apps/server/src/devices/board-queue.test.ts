import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BOARD_WORK_ATTEMPTS, BoardQueue } from './board-queue.js';

/** What node-postgres throws when the pool had no connection free in time. */
const poolTimeout = () => new Error('timeout exceeded when trying to connect');

/** A logger that keeps what it was told. */
function capture() {
  const lines: { msg: string; hardwareId?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) });
  return { logger, lines };
}

describe('BoardQueue', () => {
  it('tries a board’s work again while the database is away, its later messages waiting behind it', async () => {
    const { logger, lines } = capture();
    const queue = new BoardQueue(logger, 1);
    const log: string[] = [];
    let failures = 2;
    queue.enqueue('a', async () => {
      log.push('status attempt');
      if (failures-- > 0) throw poolTimeout();
      log.push('status stored');
    });
    queue.enqueue('a', async () => {
      log.push('prop');
    });
    await queue.drain();
    expect(log).toEqual(['status attempt', 'status attempt', 'status attempt', 'status stored', 'prop']);
    expect(lines).toEqual([]);
  });

  it('does not try again a failure the database would answer the same (a refused statement), and logs it', async () => {
    const { logger, lines } = capture();
    const queue = new BoardQueue(logger, 1);
    let attempts = 0;
    queue.enqueue('a', async () => {
      attempts += 1;
      throw new Error('column "x" does not exist');
    });
    await queue.drain();
    expect(attempts).toBe(1);
    expect(lines.map((l) => [l.msg, l.hardwareId])).toEqual([['hardware message failed', 'a']]);
  });

  it('gives up after its attempts while the database stays away, logs it, and goes on with the next message', async () => {
    const { logger, lines } = capture();
    const queue = new BoardQueue(logger, 1);
    let attempts = 0;
    let next = false;
    queue.enqueue('a', async () => {
      attempts += 1;
      throw poolTimeout();
    });
    queue.enqueue('a', async () => {
      next = true;
    });
    await queue.drain();
    expect(attempts).toBe(BOARD_WORK_ATTEMPTS);
    expect(next).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual(['hardware message failed']);
  });

  it('stops trying once stopped (the gateway is closing)', async () => {
    const { logger } = capture();
    const queue = new BoardQueue(logger, 20);
    let attempts = 0;
    queue.enqueue('a', async () => {
      attempts += 1;
      throw poolTimeout();
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    queue.stop();
    await queue.drain();
    expect(attempts).toBe(2);
  });

  it('runs a board’s work at once when nothing of the board’s waits, and keeps nothing for work done at once', async () => {
    const { logger, lines } = capture();
    const queue = new BoardQueue(logger, 1);
    const log: string[] = [];
    queue.enqueue('a', () => void log.push('heartbeat'));
    expect(log).toEqual(['heartbeat']);
    // Work that waits holds the board's later messages behind it, even those done at once.
    let finish = () => {};
    queue.enqueue(
      'a',
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            log.push('announce stored');
            resolve();
          };
        }),
    );
    queue.enqueue('a', () => void log.push('prop'));
    queue.enqueue('b', () => void log.push('other board'));
    expect(log).toEqual(['heartbeat', 'other board']);
    finish();
    await queue.drain();
    expect(log).toEqual(['heartbeat', 'other board', 'announce stored', 'prop']);
    queue.enqueue('a', () => void log.push('prop again'));
    expect(log.at(-1)).toBe('prop again');
    expect(lines).toEqual([]);
  });

  it('logs work that throws at once and goes on with the board’s next message', async () => {
    const { logger, lines } = capture();
    const queue = new BoardQueue(logger, 1);
    let next = false;
    queue.enqueue('a', () => {
      throw new Error('a bug');
    });
    queue.enqueue('a', () => void (next = true));
    await queue.drain();
    expect(next).toBe(true);
    expect(lines.map((l) => [l.msg, l.hardwareId])).toEqual([['hardware message failed', 'a']]);
  });
});
