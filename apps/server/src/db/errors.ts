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

/** SQLSTATE classes and codes of a database that is gone or not taking work: 08 connection exception, 57P01-57P03 shutting down or starting, 53300 too many connections. */
const UNAVAILABLE_CODES = /^(08...|57P0[123]|53300)$/;
/** What node-postgres and the network say when the server cannot be reached. */
const UNAVAILABLE_MESSAGES = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * True when the database could not be reached or is not taking work (stopped, restarting, the
 * network cut, too many connections), as opposed to a query it refused: the caller may try again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = (e as Error & { cause?: unknown }).cause, depth += 1) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.test(code) || UNAVAILABLE_MESSAGES.test(code))) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
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

/**
 * True when PostgreSQL ended the transaction because it conflicted with another one (40P01, a
 * deadlock; 40001, a serialization failure): the same transaction may simply be run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = databaseErrorOf(error)?.code ?? '';
  return code === '40P01' || code === '40001';
}

/** How many times work is run when another transaction conflicts with it. */
const CONFLICT_ATTEMPTS = 5;

/**
 * Runs `work`, and again (up to five times in all) while PostgreSQL ends it as conflicting with
 * another transaction (another server's writes on the same boards, say): it then applies as if
 * the other came first. Any other failure is thrown at once.
 */
export async function runAgainOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
    }
  }
}
