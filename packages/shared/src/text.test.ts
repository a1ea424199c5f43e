import { describe, expect, it } from 'vitest';
import { matchesSearch, normalizeEmail, stripQuotesAndSlashes } from './text.js';

describe('text helpers', () => {
  it('lowercases and trims emails', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
  it('strips double quotes and slashes from names', () => {
    expect(stripQuotesAndSlashes('a "b"/c\\d')).toBe('a bcd');
  });
  it('matches a case-insensitive substring, and everything for an empty search', () => {
    expect(matchesSearch('Science Hall', 'hall')).toBe(true);
    expect(matchesSearch('Science Hall', 'HALL ')).toBe(true);
    expect(matchesSearch('Science Hall', 'atrium')).toBe(false);
    expect(matchesSearch(null, 'x')).toBe(false);
    expect(matchesSearch('anything', '')).toBe(true);
  });
});
