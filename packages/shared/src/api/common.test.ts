import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Id, isId } from './common.js';

/** Ids and near misses: every version and variant digit, the nil and max UUIDs, wrong lengths, case and characters. */
function candidates(): string[] {
  const values = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '', 'not-an-id'];
  const hex = '0123456789abcdefABCDEFgx-';
  for (let i = 0; i < 400; i += 1) {
    const id = randomUUID();
    values.push(id, id.toUpperCase(), `${id} `, ` ${id}`, id.slice(1), `${id}0`, id.replaceAll('-', ''), `${id}\n`);
    // One character changed anywhere, to anything (the version and variant digits among them).
    const at = i % id.length;
    values.push(id.slice(0, at) + hex[i % hex.length] + id.slice(at + 1));
    values.push(`${id.slice(0, 14)}${hex[i % 16]}${id.slice(15, 19)}${hex[(i * 7) % 16]}${id.slice(20)}`);
  }
  return values;
}

describe('isId', () => {
  it('accepts exactly what the Id schema accepts', () => {
    const values = candidates();
    const disagree = values.filter((value) => isId(value) !== Id.safeParse(value).success);
    expect(disagree).toEqual([]);
    // Both kinds are among the candidates: the comparison covers acceptance and refusal.
    expect(values.some((value) => isId(value))).toBe(true);
    expect(values.some((value) => !isId(value))).toBe(true);
  });
});
