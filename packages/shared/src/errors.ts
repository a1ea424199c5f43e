/**
 * The one closed list of error codes Plinth answers with. Each error body is
 * `{ response, code, message }`: `response` is what the console maps (a catalogue code, or a
 * human message naming the field for validation errors), `code` is always one of these codes.
 */
export const ERROR_MESSAGES = {
  // Spec catalogue (console-and-accounts.md section 8)
  UserWithEmailExists: 'A user with that email address already exists',
  InvalidEmail: 'Please enter a valid email address',
  PasswordTooShort: 'Password must be at least 8 characters long',
  PasswordTooLong: 'Password cannot exceed 100 characters',
  PasswordDoesNotHaveNumericValue: 'Password must contain an numeric value',
  PasswordDoesNotHaveUppercaseLetter: 'Password must contain an uppercase letter',
  PasswordDoesNotHaveLowercaseLetter: 'Password must contain a lowercase letter',
  PasswordContainsSpaces: 'Password cannot contain spaces',
  UserAccountCreatedWithGAuth: 'Use Sign in with Google for this account',
  UserAccountNotCreated: 'User must create account to log in',
  ResetPasswordURLExpired: 'Reset link has expired. Please try again',
  CreateAccountURLExpired:
    'Create account link is invalid. Please contact an admin to generate a new link.',
  IncorrectUsernameOrPassword: 'Incorrect email or password. Please try again.',
  OrganizationNameAlreadyTakenException: 'Organization name already taken.',
  // Plinth's own codes
  ValidationError: 'The request is not valid.',
  Unauthorized: 'Please sign in.',
  Forbidden: 'You do not have permission to do this.',
  NotFound: 'Not found',
  MethodNotAllowed: 'Method not allowed',
  NotAcceptable: 'Not acceptable',
  Conflict: 'This conflicts with the current state.',
  LockedExhibits: 'This cannot be deleted because it contains locked exhibits.',
  ExhibitOffline: 'The exhibit is offline.',
  HardwareOffline: 'The hardware is offline.',
  TooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  UserAlreadyAdded: 'Please check that the user has not already been added.',
  ManagersCanOnlyAddExistingUsers:
    'Managers can only add users who already have a Plinth account. Ask an admin to add this user.',
  SingleSignOnNotConfigured: 'Single sign-on is not configured.',
  ExternalServiceError: 'The external service did not answer as expected.',
  PayloadTooLarge: 'The upload is too large.',
  InternalServer: 'Something went wrong on our side. Please try again.',
  ServiceUnavailable: 'The service is unavailable right now.',
  InvalidTwoFactorCode: 'That code is not right. Please try again.',
  TwoFactorEnrolmentRequired: 'Your organization requires two-factor sign-in. Set it up to continue.',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** HTTP status for each code; codes not listed answer 400. */
export const ERROR_STATUS: Partial<Record<ErrorCode, number>> = {
  UserWithEmailExists: 409,
  IncorrectUsernameOrPassword: 401,
  InvalidTwoFactorCode: 401,
  TwoFactorEnrolmentRequired: 403,
  UserAccountCreatedWithGAuth: 401,
  UserAccountNotCreated: 401,
  OrganizationNameAlreadyTakenException: 409,
  Unauthorized: 401,
  Forbidden: 403,
  ManagersCanOnlyAddExistingUsers: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  Conflict: 409,
  LockedExhibits: 409,
  ExhibitOffline: 409,
  HardwareOffline: 409,
  UserAlreadyAdded: 409,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  InternalServer: 500,
  ExternalServiceError: 502,
  SingleSignOnNotConfigured: 503,
  ServiceUnavailable: 503,
};

export function statusForCode(code: ErrorCode): number {
  return ERROR_STATUS[code] ?? 400;
}

/** The body of every error answer. */
export type ErrorBody = {
  /** A catalogue code the console maps to text, or a human-readable message. */
  response: string;
  /** One of the closed list of codes. */
  code: ErrorCode;
  /** Human-readable text, always present. */
  message: string;
  /** Extra data for some codes (for LockedExhibits: the locked exhibits). */
  details?: unknown;
};

/** Status names of the spec's HTTP mapping, for logs and generic messages. */
export function statusCategory(status: number): string {
  switch (status) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 500: return 'InternalServer';
    case 502: return 'BadGateway';
    case 503: return 'ServiceUnavailable';
    default: return 'Uncategorized';
  }
}

/** The text to show a person for an error body (catalogue text when the response is a code). */
export function messageForError(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && 'response' in body) {
    const response = (body as { response: unknown }).response;
    if (typeof response === 'string' && response.length > 0) {
      return response in ERROR_MESSAGES ? ERROR_MESSAGES[response as ErrorCode] : response;
    }
  }
  return fallback;
}
