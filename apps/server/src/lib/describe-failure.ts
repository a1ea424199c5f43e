import { DrizzleQueryError } from 'drizzle-orm';
import { databaseErrorOf } from '../db/errors.js';

/** Fields of a PostgreSQL (or PGlite) error that name the schema, never the data. */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

/**
 * What a log line may say about an error. Drizzle's errors carry the query's parameters in
 * their message (`Failed query: ... params: <submitted values>`), and PostgreSQL's messages and
 * details often quote the offending value (`invalid input syntax for type uuid: "..."`), so a
 * database error is described by its SQLSTATE code, the names it points at and the failing SQL
 * with its `$n` placeholders, never by its message. Other errors come from the server's own
 * code and are logged with their message and stack.
 */
export function describeFailure(error: unknown): Record<string, unknown> {
  const query = error instanceof DrizzleQueryError ? error.query : undefined;
  const database = databaseErrorOf(error);
  if (database) {
    const described: Record<string, unknown> = { type: 'DatabaseError' };
    for (const field of DATABASE_ERROR_FIELDS) if (database[field] !== undefined) described[field] = database[field];
    if (query) described.sql = query;
    return described;
  }
  if (query !== undefined) return { type: 'DrizzleQueryError', sql: query, cause: describeFailure((error as Error).cause) };
  if (error instanceof Error) return { type: error.name, message: error.message, stack: error.stack };
  return { type: typeof error };
}
