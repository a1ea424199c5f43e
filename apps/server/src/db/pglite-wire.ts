import type { QueryOptions } from '@electric-sql/pglite';

/** What crosses between the server's thread and the PGlite thread (db/pglite-worker.ts). */
export type WireRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; options?: WireOptions; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };
export type WireAnswer = { id: number; result: unknown } | { id: number; error: WireError };

/**
 * Query options without functions, which cannot cross threads. Drizzle passes parsers that hand
 * the text of some types through untouched (timestamps, dates, intervals, numeric arrays): they
 * cross as the list of those type ids and are made again on the other side.
 */
export type WireOptions = Omit<QueryOptions, 'parsers' | 'serializers' | 'onNotice'> & { textTypes?: number[] };

export function toWireOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  const { parsers, serializers, onNotice, ...rest } = options;
  if ((serializers && Object.keys(serializers).length) || onNotice) throw new Error('PGlite thread: serializers and notice callbacks cannot cross threads');
  if (!parsers) return rest;
  const textTypes = Object.entries(parsers).map(([type, parse]) => {
    // Only the pass-through parsers are known to mean the same on the other side.
    if (parse('2026-01-01 00:00:00+00', Number(type)) !== '2026-01-01 00:00:00+00') throw new Error(`PGlite thread: the parser of type ${type} is not a pass-through`);
    return Number(type);
  });
  return { ...rest, textTypes };
}

const asText = (text: string) => text;

export function fromWireOptions(options: WireOptions | undefined): QueryOptions | undefined {
  if (!options) return undefined;
  const { textTypes, ...rest } = options;
  return textTypes ? { ...rest, parsers: Object.fromEntries(textTypes.map((type) => [type, asText])) } : rest;
}

/** An error's message, name, stack and its PostgreSQL fields (code, constraint, table, ...). */
export type WireError = { message: string; name: string; stack?: string; fields: Record<string, string | number | boolean | null> };

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  return { message: error.message, name: error.name, stack: error.stack, fields };
}

/** The error again, with its fields, as the caller would have had it from PGlite in its own thread. */
export function fromWireError(wire: WireError): Error {
  const error = Object.assign(new Error(wire.message), wire.fields);
  error.name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  return error;
}
