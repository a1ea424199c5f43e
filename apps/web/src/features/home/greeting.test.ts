import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

const at = (hours: number, minutes: number) => new Date(2026, 10, 22, hours, minutes, 0);

describe('greetingFor', () => {
  it('says Good Morning before noon', () => {
    expect(greetingFor(at(0, 0))).toBe('Good Morning');
    expect(greetingFor(at(11, 59))).toBe('Good Morning');
  });
  it('says Good Afternoon from 12:00 until 15:59', () => {
    expect(greetingFor(at(12, 0))).toBe('Good Afternoon');
    expect(greetingFor(at(15, 59))).toBe('Good Afternoon');
  });
  it('says Good Evening from 16:00', () => {
    expect(greetingFor(at(16, 0))).toBe('Good Evening');
    expect(greetingFor(at(23, 59))).toBe('Good Evening');
  });
});
