import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * `column` is one of these ids, given as a single parameter (their text joined, split in the
 * query) rather than one parameter each as `inArray` does: any number of ids, where a statement's
 * parameters stop at 65,535 (a console re-checks every board it watches in one query), and a third
 * less time for a thousand of them (drizzle and the driver handle each parameter;
 * docs/performance.md, "A wall's subscriptions"). The ids must be well formed (`isId`): one that is
 * not fails the whole query, as it would in `inArray`.
 */
export function idIn(column: AnyColumn, ids: string[]): SQL {
  return sql`${column} = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;
}
