import { describe, expect, it } from 'vitest';
import { parsePickerValue, rangeBefore, viewerTimeZone, withEnd, withStart } from './date-range';

const at = (day: number, hour = 10) => new Date(2026, 2, day, hour, 0, 0);

describe('date ranges', () => {
  it('ends a default range now', () => {
    const now = at(14);
    expect(rangeBefore(24 * 3600_000, now)).toEqual({ start: at(13), end: now });
  });

  it('makes the end follow a start moved past it, and leaves it otherwise', () => {
    const range = { start: at(10), end: at(12) };
    expect(withStart(range, at(20))).toEqual({ start: at(20), end: at(20) });
    expect(withStart(range, at(11))).toEqual({ start: at(11), end: at(12) });
  });

  it('never sets the end before the start', () => {
    const range = { start: at(10), end: at(12) };
    expect(withEnd(range, at(5))).toEqual({ start: at(10), end: at(10) });
    expect(withEnd(range, at(15))).toEqual({ start: at(10), end: at(15) });
  });

  it('reads picker values as local time', () => {
    expect(parsePickerValue('2026-03-14 16:05:00')).toEqual(new Date(2026, 2, 14, 16, 5, 0));
    expect(parsePickerValue(null)).toBeNull();
    expect(parsePickerValue('nonsense')).toBeNull();
  });

  it('names the viewer time zone', () => {
    expect(viewerTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
