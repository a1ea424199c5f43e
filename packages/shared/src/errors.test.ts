import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, messageForError, statusCategory, statusForCode } from './errors.js';

describe('error catalogue', () => {
  it('maps a catalogue code in `response` to its text', () => {
    expect(messageForError({ response: 'IncorrectUsernameOrPassword' }, 'x')).toBe('Incorrect email or password. Please try again.');
    expect(messageForError({ response: 'CreateAccountURLExpired' }, 'x')).toBe(ERROR_MESSAGES.CreateAccountURLExpired);
  });

  it('shows a server message as it is, and the fallback when there is none', () => {
    expect(messageForError({ response: 'name: must not be empty' }, 'x')).toBe('name: must not be empty');
    expect(messageForError({}, 'fallback')).toBe('fallback');
    expect(messageForError(null, 'fallback')).toBe('fallback');
  });

  it('maps statuses as the spec lists them', () => {
    expect([400, 401, 403, 404, 405, 406, 500, 502, 503, 418].map(statusCategory)).toEqual([
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'MethodNotAllowed',
      'NotAcceptable',
      'InternalServer',
      'BadGateway',
      'ServiceUnavailable',
      'Uncategorized',
    ]);
    expect(statusForCode('LockedExhibits')).toBe(409);
    expect(statusForCode('PasswordTooShort')).toBe(400);
  });
});
