import { describe, expect, it } from 'vitest';
import { onlineSinceText } from './online-time';

const now = new Date('2026-11-22T12:00:00Z');

describe('onlineSinceText', () => {
  it('says how long an online exhibit has been online', () => {
    expect(onlineSinceText(true, '2026-11-22T10:00:00Z', now)).toBe('Online for 2 hours');
  });
  it('says when an offline exhibit was last online', () => {
    expect(onlineSinceText(false, '2026-11-19T12:00:00Z', now)).toBe('Last online 3 days ago');
  });
  it('says Never online for an exhibit that never connected', () => {
    expect(onlineSinceText(false, null, now)).toBe('Never online');
  });
  it('does not read a change slightly in the future as "in a few seconds"', () => {
    expect(onlineSinceText(false, '2026-11-22T12:00:05Z', now)).toBe('Last online a few seconds ago');
  });
});
