import type { Peripheral } from '@plinth/shared';
import { describe, expect, it } from 'vitest';
import { BoardPropCatalog } from './board-props.js';

const BOARD = '0b6c0b52-8f0e-4f4e-9a55-1d7d1b1f0c11';
const OTHER = '5d0e6f1c-2b7a-4c1e-8f3d-9a2b1c0d4e5f';

function peripheral(id: string, name: string, props: [string, string][]): Peripheral {
  return { id, name, props: props.map(([propName, type]) => ({ name: propName, type })) } as Peripheral;
}

const ANNOUNCED = [
  peripheral('p1', 'Big red button', [['pressed', 'button']]),
  peripheral('p2', 'Lamp', [['on', 'boolean'], ['level', 'number']]),
];

describe('the board prop catalog', () => {
  it('answers each announced prop’s peripheral name and type, and null for one the board does not have', async () => {
    const reads: string[] = [];
    const catalog = new BoardPropCatalog(async (id) => (reads.push(id), []));
    catalog.remember(BOARD, ANNOUNCED);
    expect(await catalog.lookup(BOARD, 'p1', 'pressed')).toEqual({ periphName: 'Big red button', propType: 'button' });
    expect(await catalog.lookup(BOARD, 'p2', 'on')).toEqual({ periphName: 'Lamp', propType: 'boolean' });
    expect(await catalog.lookup(BOARD, 'p2', 'level')).toEqual({ periphName: 'Lamp', propType: 'number' });
    expect(reads).toEqual([]);
    // A prop name of another peripheral, or a peripheral id used as a prop name, is not a match.
    expect(await catalog.lookup(BOARD, 'p1', 'on')).toBeNull();
    expect(await catalog.lookup(BOARD, 'pressed', 'p1')).toBeNull();
    expect(reads).toEqual([BOARD, BOARD]);
  });

  it('reads a board it does not know, and again after it forgot it or the board announced anew', async () => {
    let stored = ANNOUNCED;
    const reads: string[] = [];
    const catalog = new BoardPropCatalog(async (id) => (reads.push(id), id === BOARD ? stored : []));
    expect(await catalog.lookup(BOARD, 'p2', 'level')).toEqual({ periphName: 'Lamp', propType: 'number' });
    expect(await catalog.lookup(BOARD, 'p2', 'level')).not.toBeNull();
    expect(reads).toEqual([BOARD]);

    catalog.forget(BOARD);
    stored = [peripheral('p2', 'Dimmer', [['level', 'number']])];
    expect(await catalog.lookup(BOARD, 'p2', 'level')).toEqual({ periphName: 'Dimmer', propType: 'number' });
    expect(reads).toEqual([BOARD, BOARD]);

    catalog.remember(BOARD, [peripheral('p3', 'Fan', [['speed', 'number']])]);
    expect(await catalog.lookup(BOARD, 'p3', 'speed')).toEqual({ periphName: 'Fan', propType: 'number' });
    expect(await catalog.lookup(OTHER, 'p3', 'speed')).toBeNull();
  });

  it('keeps boards apart when they share peripheral ids', async () => {
    const catalog = new BoardPropCatalog(async () => []);
    catalog.remember(BOARD, ANNOUNCED);
    catalog.remember(OTHER, [peripheral('p1', 'Knob', [['pressed', 'number']])]);
    expect(await catalog.lookup(BOARD, 'p1', 'pressed')).toEqual({ periphName: 'Big red button', propType: 'button' });
    expect(await catalog.lookup(OTHER, 'p1', 'pressed')).toEqual({ periphName: 'Knob', propType: 'number' });
  });
});
