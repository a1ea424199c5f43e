import { describe, expect, it } from 'vitest';
import { prop } from '../test/support';
import {
  checkNumberInput,
  defaultDisplayType,
  displayTypesFor,
  formatNumber,
  isCompleteLedValue,
  parseNumberInput,
  sanitizeNumberInput,
  splitLedValue,
} from './prop-values';
import { formatFileSize, orDash } from './format';

describe('number props', () => {
  it('offers hex, bin and uint for unsigned props and all four otherwise', () => {
    expect(displayTypesFor('uint')).toEqual(['hex', 'bin', 'uint']);
    expect(displayTypesFor('int')).toEqual(['hex', 'bin', 'int', 'uint']);
    expect(displayTypesFor('number')).toEqual(['hex', 'bin', 'int', 'uint']);
    expect(defaultDisplayType({ type: 'uint', displayType: 'int' })).toBe('uint');
    expect(defaultDisplayType({ type: 'uint', displayType: 'hex' })).toBe('hex');
    expect(defaultDisplayType({ type: 'int', displayType: null })).toBe('int');
  });

  it('writes numbers in each display type', () => {
    expect(formatNumber(42, 'hex')).toBe('0x2A');
    expect(formatNumber(5, 'bin')).toBe('0b101');
    expect(formatNumber(-5, 'int')).toBe('-5');
    expect(formatNumber(21.5, 'uint')).toBe('21.5');
  });

  it('keeps only what the display type allows while typing', () => {
    expect(sanitizeNumberInput('0xfg1', 'hex', 'uint')).toBe('0xF1');
    expect(sanitizeNumberInput('0b1021', 'bin', 'int')).toBe('0b101');
    expect(sanitizeNumberInput('-12a', 'int', 'int')).toBe('-12');
    expect(sanitizeNumberInput('-12', 'uint', 'int')).toBe('12');
    expect(sanitizeNumberInput('-12', 'int', 'uint')).toBe('12');
    expect(sanitizeNumberInput('1.5.2', 'int', 'number')).toBe('1.52');
    expect(sanitizeNumberInput('1.5', 'int', 'int')).toBe('15');
  });

  it('reads typed text in its display type', () => {
    expect(parseNumberInput('0x2A', 'hex')).toBe(42);
    expect(parseNumberInput('2a', 'hex')).toBe(42);
    expect(parseNumberInput('0b101', 'bin')).toBe(5);
    expect(parseNumberInput('-7', 'int')).toBe(-7);
    expect(parseNumberInput('', 'int')).toBeNull();
    expect(parseNumberInput('0x', 'hex')).toBeNull();
  });

  it('answers the min and max messages of the spec', () => {
    const p = prop('duty', 'uint', 0, { settable: 'true', min: 10, max: 255 });
    expect(checkNumberInput(p, '5', 'uint')).toEqual({ ok: false, message: 'Number must be above minimum value of 10' });
    expect(checkNumberInput(p, '0x100', 'hex')).toEqual({ ok: false, message: 'Number must be below maximum value of 255' });
    expect(checkNumberInput(p, '0xFF', 'hex')).toEqual({ ok: true, value: 255 });
  });
});

describe('LED values', () => {
  it('splits the channels and needs every one numeric', () => {
    expect(splitLedValue('255,0,0,0', 4)).toEqual(['255', '0', '0', '0']);
    expect(splitLedValue(null, 6)).toEqual(['', '', '', '', '', '']);
    expect(isCompleteLedValue(['1', '2', '3', '4'], 4)).toBe(true);
    expect(isCompleteLedValue(['1', '', '3', '4'], 4)).toBe(false);
    expect(isCompleteLedValue(['1', 'x', '3', '4'], 4)).toBe(false);
  });
});

describe('format', () => {
  it('shows a dash for missing values and sizes with 2 decimals', () => {
    expect(orDash(null)).toBe('-');
    expect(orDash('')).toBe('-');
    expect(orDash(0)).toBe('0');
    expect(formatFileSize('512')).toBe('512.00 B');
    expect(formatFileSize('1536000')).toBe('1.54 MB');
  });
});
