import { describe, expect, it } from 'vitest';
import { countLabel } from './count-label';

describe('countLabel', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(countLabel(1, 'item')).toBe('1 item');
    expect(countLabel(0, 'item')).toBe('0 items');
    expect(countLabel(2, 'item')).toBe('2 items');
  });

  it('takes an irregular plural', () => {
    expect(countLabel(1, 'entry', 'entries')).toBe('1 entry');
    expect(countLabel(5, 'entry', 'entries')).toBe('5 entries');
  });
});
