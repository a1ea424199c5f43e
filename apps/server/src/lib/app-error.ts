import { ERROR_MESSAGES, statusForCode, type ErrorBody, type ErrorCode } from '@plinth/shared';

/** What an error carries besides its code and message. */
export type AppErrorExtras = {
  /** Facts the body carries as `details` (e.g. the locked exhibits, the seconds to wait). */
  details?: unknown;
  /** HTTP headers the answer carries (e.g. Retry-After on TooManyRequests). */
  headers?: Record<string, string>;
};

/** The one error class of the server: a code of the closed list, mapped to HTTP in one place. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  /** What goes in the body's `response` field: the code itself unless a message is given. */
  readonly response: string;
  /** HTTP headers the answer carries (e.g. Retry-After on TooManyRequests). */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message?: string, extras: AppErrorExtras = {}) {
    super(message ?? ERROR_MESSAGES[code]);
    this.code = code;
    this.status = statusForCode(code);
    this.details = extras.details;
    this.response = message ?? code;
    this.headers = extras.headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { response: this.response, code: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const notFound = (what = 'Not found') => new AppError('NotFound', what);
export const forbidden = (what?: string) => new AppError('Forbidden', what);
