import { DrizzleQueryError } from 'drizzle-orm';

/** A PostgreSQL error as node-postgres and PGlite raise it: a five-character SQLSTATE code and the names it points at. */
export type DatabaseError = Error & { code: string } & Partial<Record<'severity' | 'schema' | 'table' | 'column' | 'dataType' | 'constraint' | 'routine', string>>;

function isDatabaseError(error: unknown): error is DatabaseError {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** The PostgreSQL error behind an error (Drizzle wraps it as the cause of a DrizzleQueryError), or null. */
export function databaseErrorOf(error: unknown): DatabaseError | null {
  if (isDatabaseError(error)) return error;
  if (error instanceof DrizzleQueryError && isDatabaseError(error.cause)) return error.cause;
  return null;
}

/**
 * True when PostgreSQL refused the data itself (SQLSTATE class 22, data exception, or 23,
 * integrity constraint violation), as opposed to a lost connection or a broken statement:
 * retrying the rows one by one then saves every row but the bad one.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = databaseErrorOf(error)?.code ?? '';
  return code.startsWith('22') || code.startsWith('23');
}
