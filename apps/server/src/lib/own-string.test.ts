import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownString } from './own-string.js';

describe('ownString', () => {
  it('answers the same text', () => {
    const id = randomUUID();
    const text = 'exhibit:Ünïcödé ✓ 🎛️ "quoted" \\ \n';
    expect(ownString(id)).toBe(id);
    expect(ownString(text)).toBe(text);
    expect(ownString('')).toBe('');
    expect(ownString('v1.abc.123.sig'.slice(3, 6))).toBe('abc');
  });
});
