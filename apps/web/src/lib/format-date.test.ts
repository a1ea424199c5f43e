import { describe, expect, it } from 'vitest';
import { formatDate, formatTokenDate, onlineSinceText } from './format-date';

/** 14 March 2026, 16:05:09 local time, as the server sends it. */
const AFTERNOON = new Date(2026, 2, 14, 16, 5, 9).toISOString();
/** 2 January 2026, 09:07:03 local time. */
const MORNING = new Date(2026, 0, 2, 9, 7, 3).toISOString();

describe('formatDate', () => {
  it('writes files and the site hardware cards as MM/DD/YYYY, h:mm a', () => {
    expect(formatDate(AFTERNOON, 'card')).toBe('03/14/2026, 4:05 pm');
    expect(formatDate(MORNING, 'card')).toBe('01/02/2026, 9:07 am');
  });

  it('adds the seconds on the exhibit connected-hardware cards', () => {
    expect(formatDate(AFTERNOON, 'cardWithSeconds')).toBe('03/14/2026, 4:05:09 pm');
  });

  it('writes exhibit Date values as MM-DD-YYYY h:mm am/pm', () => {
    expect(formatDate(AFTERNOON, 'value')).toBe('03-14-2026 4:05 pm');
    expect(formatDate(new Date(2026, 0, 2, 0, 30).toISOString(), 'value')).toBe('01-02-2026 12:30 am');
  });

  it('writes hardware details and firmware tables as MM-DD-YYYY plus the time with seconds', () => {
    expect(formatDate(MORNING, 'detail')).toBe('01-02-2026 9:07:03 am');
  });

  it('shows a dash, or the caller fallback, for a missing or unreadable date', () => {
    expect(formatDate(null, 'detail')).toBe('-');
    expect(formatDate(undefined, 'card')).toBe('-');
    expect(formatDate('', 'card')).toBe('-');
    expect(formatDate('not a date', 'detail')).toBe('-');
    expect(formatDate('soon', 'value', 'soon')).toBe('soon');
  });
});

describe('formatTokenDate', () => {
  it('keeps the first 10 characters of the ISO date', () => {
    expect(formatTokenDate('2026-03-04T05:06:07.000Z')).toBe('2026-03-04');
  });
});

describe('onlineSinceText', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('says how long an online exhibit has been online', () => {
    expect(onlineSinceText(true, '2026-11-22T10:00:00Z', now)).toBe('Online for 2 hours');
  });
  it('says when an offline exhibit was last online', () => {
    expect(onlineSinceText(false, '2026-11-19T12:00:00Z', now)).toBe('Last online 3 days ago');
  });
  it('says Never online for an exhibit that never connected', () => {
    expect(onlineSinceText(false, null, now)).toBe('Never online');
  });
  it('has nothing to say for an online exhibit without a recorded change, or an unreadable date', () => {
    expect(onlineSinceText(true, null, now)).toBeNull();
    expect(onlineSinceText(false, 'garbage', now)).toBeNull();
  });
  it('does not read a change slightly in the future as "in a few seconds"', () => {
    expect(onlineSinceText(false, '2026-11-22T12:00:05Z', now)).toBe('Last online a few seconds ago');
  });
});

describe('the logs and reports formats', () => {
  it('writes log times as a long date with seconds', () => {
    expect(formatDate(AFTERNOON, 'log')).toBe('March 14, 2026 4:05:09 pm');
    expect(formatDate(Date.parse(MORNING), 'log')).toBe('January 2, 2026 9:07:03 am');
    expect(formatDate(new Date(MORNING), 'log')).toBe('January 2, 2026 9:07:03 am');
  });

  it('labels exhibit report buckets MM-DD HH:mm and hardware report days MM-DD', () => {
    expect(formatDate(AFTERNOON, 'reportBucket')).toBe('03-14 16:05');
    expect(formatDate(MORNING, 'reportDay')).toBe('01-02');
  });

  it('stamps file names and writes picker values', () => {
    expect(formatDate(AFTERNOON, 'fileStamp')).toBe('20260314-160509');
    expect(formatDate(AFTERNOON, 'picker')).toBe('03-14-2026 4:05 pm');
  });

  it('reads epoch 0 as a date, not as missing', () => {
    expect(formatDate(0, 'fileStamp')).toBe(formatDate(new Date(0).toISOString(), 'fileStamp'));
  });
});
