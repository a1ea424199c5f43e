import { describe, expect, it } from 'vitest';
import type { Hardware } from '@plinth/shared';
import { filterAndSortHardware } from './device-lists';

function hw(name: string, exhibitId: string | null): Hardware {
  return { name, exhibitId } as Hardware;
}

describe('filterAndSortHardware', () => {
  it('puts hardware attached to an exhibit first, then sorts by name, and filters case-insensitively', () => {
    const list = [hw('delta', null), hw('Alpha', null), hw('Charlie', 'x'), hw('bravo', 'y')];
    expect(filterAndSortHardware(list, '').map((h) => h.name)).toEqual(['bravo', 'Charlie', 'Alpha', 'delta']);
    expect(filterAndSortHardware(list, 'AL').map((h) => h.name)).toEqual(['Alpha']);
  });
});
