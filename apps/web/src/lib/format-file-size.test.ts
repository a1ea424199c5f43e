import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format-file-size';

describe('formatFileSize', () => {
  it('writes bytes in B, kB, MB, GB and TB with 2 decimals, 1000 to the next unit', () => {
    expect(formatFileSize(0)).toBe('0.00 B');
    expect(formatFileSize(512)).toBe('512.00 B');
    expect(formatFileSize(999)).toBe('999.00 B');
    expect(formatFileSize(1000)).toBe('1.00 kB');
    expect(formatFileSize(1536)).toBe('1.54 kB');
    expect(formatFileSize(1_536_000)).toBe('1.54 MB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2.15 GB');
    expect(formatFileSize(3.5e12)).toBe('3.50 TB');
  });

  it('stays in TB past it, and never shows 1000.00 of a unit', () => {
    expect(formatFileSize(4.2e15)).toBe('4200.00 TB');
    expect(formatFileSize(999_999)).toBe('1.00 MB');
    expect(formatFileSize(999_994)).toBe('999.99 kB');
  });

  it('reads string sizes and shows a dash for what is not a size', () => {
    expect(formatFileSize('1536000')).toBe('1.54 MB');
    expect(formatFileSize('')).toBe('-');
    expect(formatFileSize(null)).toBe('-');
    expect(formatFileSize(undefined)).toBe('-');
    expect(formatFileSize('big')).toBe('-');
    expect(formatFileSize(-1)).toBe('-');
    expect(formatFileSize(Number.NaN)).toBe('-');
  });
});
