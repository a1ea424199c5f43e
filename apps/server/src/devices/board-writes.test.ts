import { describe, expect, it } from 'vitest';
import { splitOnePerBoard } from '../lib/one-per-board.js';
import { BOARD_WRITE_BATCH } from './board-writes.js';
import type { PropWrite } from './hardware-ingest.repository.js';

const prop = (hardwareId: string, propName: string): PropWrite => ({ hardwareId, peripheralId: 'p', propName, value: 1 });

describe('splitOnePerBoard', () => {
  it('takes each board’s first prop now and leaves its others, in order, for later statements', () => {
    const writes = [prop('a', 'x'), prop('b', 'x'), prop('a', 'y'), prop('a', 'z'), prop('c', 'x')];
    const first = splitOnePerBoard(writes);
    expect(first.now).toEqual([prop('a', 'x'), prop('b', 'x'), prop('c', 'x')]);
    expect(first.later).toEqual([prop('a', 'y'), prop('a', 'z')]);
    const second = splitOnePerBoard(first.later);
    expect(second).toEqual({ now: [prop('a', 'y')], later: [prop('a', 'z')] });
  });

  it('puts no more than a batch in one statement', () => {
    const writes = Array.from({ length: BOARD_WRITE_BATCH + 5 }, (_, i) => prop(`board-${i}`, 'x'));
    const { now, later } = splitOnePerBoard(writes, BOARD_WRITE_BATCH);
    expect(now).toHaveLength(BOARD_WRITE_BATCH);
    expect(later).toHaveLength(5);
  });
});
