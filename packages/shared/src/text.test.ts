import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUnsafeText, findUnsafeText, formatFieldPath, matchesSearch, mayHoldUnsafeText, normalizeEmail, stripQuotesAndSlashes } from './text.js';

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

describe('findUnsafeText: the one rule for text PostgreSQL cannot store', () => {
  it('answers null for well-formed text, numbers, booleans, null and surrogate pairs', () => {
    expect(findUnsafeText({ name: 'Café 🎨', tags: ['a', 'b'], n: 1, ok: true, none: null })).toBeNull();
    expect(findUnsafeText('plain')).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
  });

  it('finds a NUL character and names where it sits', () => {
    expect(findUnsafeText({ name: 'a\u0000b' })).toEqual({ path: ['name'], message: expect.stringMatching(/NUL/) });
    expect(findUnsafeText({ settings: [{ id: 'ok' }, { id: 'x', default: '\u0000' }] })).toMatchObject({ path: ['settings', 1, 'default'] });
    expect(findUnsafeText('\u0000')).toMatchObject({ path: [] });
  });

  it('finds lone surrogates, high or low, anywhere in a string', () => {
    expect(findUnsafeText({ a: 'x\ud800' })).toMatchObject({ path: ['a'], message: expect.stringMatching(/surrogate/) });
    expect(findUnsafeText({ a: '\udc00x' })).toMatchObject({ path: ['a'] });
    expect(findUnsafeText({ a: 'x\ud83d\ud83dy' })).toMatchObject({ path: ['a'] });
    expect(findUnsafeText({ a: '\ud83d\ude00' })).toBeNull();
  });

  it('checks object keys too, and answers the first problem in document order', () => {
    expect(findUnsafeText({ values: { 'a\u0000': 1 } })).toMatchObject({ path: ['values', 'a\u0000'] });
    expect(findUnsafeText({ first: '\u0000', second: '\ud800' })).toMatchObject({ path: ['first'] });
    expect(findUnsafeText({ first: '\u0000', 'second\u0000': 1 })).toMatchObject({ path: ['first'] });
  });

  it('walks very deep values without exhausting the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.path).toHaveLength(100_000);
  });

  it('formats a path as error messages name fields, escaping unsafe characters in keys', () => {
    expect(formatFieldPath(['settings', 2, 'default'])).toBe('settings.2.default');
    expect(formatFieldPath(['values', 'a\u0000'])).toBe('values.a\\u0000');
    expect(formatFieldPath([], 'body')).toBe('body');
    expect(describeUnsafeText({ path: ['name'], message: 'must not contain a NUL character' })).toBe('name: must not contain a NUL character');
  });
});

describe('mayHoldUnsafeText: the pre-check that spares clean payloads the walk', () => {
  it('answers true for the JSON text of every value findUnsafeText refuses', () => {
    // Strings of any UTF-16 units (NULs and lone surrogates included), as values and as keys.
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\u0000', '\ud800', '\udc00', '😀', '\ud83d'), maxLength: 6 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(text, tie('node'), { maxKeys: 3 })),
    })).node;
    let refused = 0;
    fc.assert(
      fc.property(value, (generated) => {
        if (!findUnsafeText(generated)) return;
        refused++;
        expect(mayHoldUnsafeText(JSON.stringify(generated))).toBe(true);
      }),
      { numRuns: 2000, seed: 22 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('answers false for plain payloads and true for raw NULs and surrogates', () => {
    expect(mayHoldUnsafeText('{"peripheralId":"text1","propName":"text","value":"Grüße 42"}')).toBe(false);
    expect(mayHoldUnsafeText('{"value":"\\u0000"}')).toBe(true);
    expect(mayHoldUnsafeText('{"value":"\u0000"}')).toBe(true);
    expect(mayHoldUnsafeText('{"value":"\ud800"}')).toBe(true);
  });
});
