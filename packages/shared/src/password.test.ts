import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES, isPasswordValid, passwordError } from './password.js';

describe('password rules', () => {
  it('accepts a password that holds every rule', () => {
    expect(passwordError('Passw0rd')).toBeNull();
    expect(isPasswordValid('Passw0rd')).toBe(true);
  });

  it.each([
    ['Pa0s', 'PasswordTooShort'],
    [`Pa0${'s'.repeat(98)}`, 'PasswordTooLong'],
    ['Pass w0rd', 'PasswordContainsSpaces'],
    ['Password', 'PasswordDoesNotHaveNumericValue'],
    ['passw0rd', 'PasswordDoesNotHaveUppercaseLetter'],
    ['PASSW0RD', 'PasswordDoesNotHaveLowercaseLetter'],
  ])('%s breaks %s', (password, code) => {
    expect(passwordError(password)).toBe(code);
  });

  it('keeps the 8 and 100 character bounds inclusive', () => {
    expect(passwordError('Passw0rd'.slice(0, 8))).toBeNull();
    expect(passwordError(`Pa0${'s'.repeat(97)}`)).toBeNull();
  });

  it('lists the checklist texts of the spec in order', () => {
    expect(PASSWORD_RULES.map((r) => r.label)).toEqual([
      'Password length should be between 8-100 characters',
      'Password should not contain spaces',
      'Password should contain at least one numeric digit',
      'Password should contain at least one uppercase character',
      'Password should contain at least one lowercase character',
    ]);
  });
});
