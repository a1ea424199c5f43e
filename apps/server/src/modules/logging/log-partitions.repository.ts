import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { LogTable } from './log-store.repository.js';

/** Key of the advisory lock that lets one node at a time run the retention job. */
const RETENTION_LOCK_KEY = 72_110_004;

/** One day partition of a log table, from its `_pYYYYMMDD` name. */
export type DayPartition = { table: LogTable; name: string; day: string };

/**
 * Runs `work` in a transaction holding the retention lock; answers null at once, without
 * running it, when another node holds the lock (it is doing the same work).
 */
export async function withRetentionLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T | null> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) as locked`);
    if (!(result as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked) return null;
    // Dropping a partition locks its parent: give up rather than stall the log writers for long.
    await tx.execute(sql`set local lock_timeout = '10s'`);
    return work(tx as unknown as Db);
  });
}

/** The day partitions of both log tables (found through pg_inherits, dated by their names). */
export async function listDayPartitions(db: Db): Promise<DayPartition[]> {
  const result = await db.execute(sql`
    select parent.relname as "table", child.relname as name
    from pg_inherits i
      join pg_class child on child.oid = i.inhrelid
      join pg_class parent on parent.oid = i.inhparent
      join pg_namespace ns on ns.oid = parent.relnamespace
    where parent.relname in ('log_entries', 'report_events') and ns.nspname = current_schema()`);
  const rows = (result as unknown as { rows: { table: LogTable; name: string }[] }).rows;
  return rows.flatMap((row) => {
    const match = /_p(\d{4})(\d{2})(\d{2})$/.exec(row.name);
    return match ? [{ table: row.table, name: row.name, day: `${match[1]}-${match[2]}-${match[3]}` }] : [];
  });
}

/** Drops one day partition with its rows: no row-by-row delete. */
export async function dropDayPartition(db: Db, partition: DayPartition): Promise<void> {
  await db.execute(sql`drop table if exists ${sql.identifier(partition.name)}`);
}
