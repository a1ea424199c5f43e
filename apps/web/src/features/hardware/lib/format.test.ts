import { describe, expect, it } from 'vitest';
import { overviewFields } from '../components/HardwareOverviewTab';
import { makeHardware } from '../test/support';
import { MISSING, orDash, peripheralCount } from './format';

/** A board created in the console that has never connected: nothing reported yet. */
const neverConnected = makeHardware({ online: false, ip: null, mac: null, plinth_fw: null, user_fw: null, numPeripherals: 0 });

describe('peripheralCount', () => {
  it('shows a dash for a board that has never reported, not 0', () => {
    expect(peripheralCount(neverConnected)).toBe(MISSING);
  });

  it('shows the count, 0 included, once the board has reported', () => {
    expect(peripheralCount(makeHardware({ numPeripherals: 0 }))).toBe('0');
    expect(peripheralCount(makeHardware({ numPeripherals: 3 }))).toBe('3');
    expect(peripheralCount({ ...neverConnected, plinth_fw: '46' })).toBe('0');
  });
});

describe('orDash', () => {
  it('shows a dash for a missing or blank value', () => {
    expect(orDash(null)).toBe(MISSING);
    expect(orDash('  ')).toBe(MISSING);
    expect(orDash(0)).toBe('0');
  });
});

describe('overviewFields', () => {
  it('reads Number of Peripherals as a dash for a board that never connected', () => {
    const field = overviewFields(neverConnected).find((f) => f.label === 'Number of Peripherals');
    expect(field?.value).toBe(MISSING);
  });
});
