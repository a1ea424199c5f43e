import { ERROR_MESSAGES, statusForCode, type ErrorBody, type ErrorCode } from '@plinth/shared';

/** The one error class of the server: a code of the closed list, mapped to HTTP in one place. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  /** What goes in the body's `response` field: the code itself unless a message is given. */
  readonly response: string;
  /** HTTP headers the answer carries (e.g. Retry-After on TooManyRequests). */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message?: string, details?: unknown, headers?: Record<string, string>) {
    super(message ?? ERROR_MESSAGES[code]);
    this.code = code;
    this.status = statusForCode(code);
    this.details = details;
    this.response = message ?? code;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { response: this.response, code: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const notFound = (what = 'Not found') => new AppError('NotFound', what);
export const forbidden = (what?: string) => new AppError('Forbidden', what);
