import type { ErrorCode } from './errors.js';

/** Password length limits (spec section 9). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 100;

export type PasswordRule = {
  /** The checklist text shown live under the password field. */
  label: string;
  /** The error code the server answers when the rule fails. */
  code: ErrorCode;
  test: (password: string) => boolean;
};

/** The password rules, in checklist order; the console checklist and the server share them. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    label: 'Password length should be between 8-100 characters',
    code: 'PasswordTooShort',
    test: (p) => p.length >= PASSWORD_MIN_LENGTH && p.length <= PASSWORD_MAX_LENGTH,
  },
  { label: 'Password should not contain spaces', code: 'PasswordContainsSpaces', test: (p) => !/\s/.test(p) },
  {
    label: 'Password should contain at least one numeric digit',
    code: 'PasswordDoesNotHaveNumericValue',
    test: (p) => /[0-9]/.test(p),
  },
  {
    label: 'Password should contain at least one uppercase character',
    code: 'PasswordDoesNotHaveUppercaseLetter',
    test: (p) => /[A-Z]/.test(p),
  },
  {
    label: 'Password should contain at least one lowercase character',
    code: 'PasswordDoesNotHaveLowercaseLetter',
    test: (p) => /[a-z]/.test(p),
  },
];

/** The first error code the password breaks, or null when it holds every rule. */
export function passwordError(password: string): ErrorCode | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'PasswordTooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'PasswordTooLong';
  for (const rule of PASSWORD_RULES) if (!rule.test(password)) return rule.code;
  return null;
}

export function isPasswordValid(password: string): boolean {
  return passwordError(password) === null;
}
