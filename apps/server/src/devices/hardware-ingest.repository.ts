import { sql } from 'drizzle-orm';
import type { HeartbeatMessage, Peripheral, Prop } from '@plinth/shared';
import type { Db } from '../db/client.js';
import type { Logger } from 'pino';
import { isDataRefusal, isDatabaseUnavailable, runAgainOnConflict } from '../db/errors.js';
import { describeFailure } from '../lib/describe-failure.js';

/** One heartbeat to store: the board, what it said and when it arrived. */
export type HeartbeatWrite = { hardwareId: string; beat: HeartbeatMessage; at: Date };

/** A board's row the database refused to write, and its error. */
export type FailedWrite = { hardwareId: string; error: unknown };

/**
 * Writes a batch in one statement; when PostgreSQL refuses the data of the batch, writes its
 * rows one by one, so a row it refuses never loses the others. Answers the rows refused. Any
 * other failure (a lost connection) is thrown: retrying row by row would not help.
 */
async function writeBatchOrEach<W extends { hardwareId: string }>(unordered: W[], write: (batch: W[]) => Promise<unknown>): Promise<FailedWrite[]> {
  if (!unordered.length) return [];
  // Another server may write some of the same boards at once (a shared broker hands each board's
  // messages to either node). Rows in id order are locked in that order where the plan follows
  // the list; where it does not and the two deadlock, the statement ends and runs again.
  const writes = [...unordered].sort(byBoard);
  try {
    await runAgainOnConflict(() => write(writes));
    return [];
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
    if (writes.length === 1) return [{ hardwareId: writes[0]!.hardwareId, error }];
  }
  const failed: FailedWrite[] = [];
  for (const one of writes) {
    try {
      await runAgainOnConflict(() => write([one]));
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      failed.push({ hardwareId: one.hardwareId, error });
    }
  }
  return failed;
}

function byBoard(a: { hardwareId: string }, b: { hardwareId: string }): number {
  return a.hardwareId < b.hardwareId ? -1 : a.hardwareId > b.hardwareId ? 1 : 0;
}

/**
 * Runs a batched write for the gateway, which must go on whatever happens: each row the database
 * refused is logged by board, a batch lost whole (a broken statement) once; never with the values.
 * A database that cannot be reached is thrown, for the batcher to hold the batch and try again.
 */
export async function writeAndLogFailures(logger: Logger, what: string, write: () => Promise<FailedWrite[]>): Promise<void> {
  try {
    for (const { hardwareId, error } of await write()) logger.error({ hardwareId, failure: describeFailure(error) }, what);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error({ failure: describeFailure(error) }, what);
  }
}


/**
 * Stores many boards' heartbeats in one statement (the board traffic's hot path: 10,000 boards
 * at the default 16 s make 625 a second). Unknown ids are skipped. Answers the rows PostgreSQL
 * refused; the others are stored all the same.
 */
export async function writeHeartbeats(db: Db, writes: HeartbeatWrite[]): Promise<FailedWrite[]> {
  return writeBatchOrEach(writes, (batch) => {
    const rows = batch.map(
      ({ hardwareId, beat, at }) =>
        sql`(${hardwareId}::uuid, ${beat.voltage}::float8, ${beat.temp}::float8, ${beat.uptime}::float8, ${beat.exhibitState}::text, ${beat.exhibitIP}::text, ${at.toISOString()}::timestamptz)`,
    );
    return db.execute(sql`
      update hardware as h
      set voltage = v.voltage, temp = v.temp, uptime = v.uptime, exhibit_state = v.exhibit_state,
          exhibit_ip = v.exhibit_ip, updated_at = v.at
      from (values ${sql.join(rows, sql`, `)}) as v(id, voltage, temp, uptime, exhibit_state, exhibit_ip, at)
      where h.id = v.id`);
  });
}

/** One prop value to store. */
export type PropWrite = { hardwareId: string; peripheralId: string; propName: string; value: Prop['value'] };

/**
 * Stores many props' new values inside the boards' announced peripherals in one statement. An
 * UPDATE changes a row once, so the batch must hold at most one prop per board (the caller
 * splits it); props a board did not announce are skipped. Answers the rows PostgreSQL refused.
 */
export async function writePropValues(db: Db, writes: PropWrite[]): Promise<FailedWrite[]> {
  return writeBatchOrEach(writes, (batch) => writePropBatch(db, batch));
}

function writePropBatch(db: Db, writes: PropWrite[]) {
  const rows = writes.map(
    (w) => sql`(${w.hardwareId}::uuid, ${w.peripheralId}::text, ${w.propName}::text, ${JSON.stringify(w.value)}::jsonb)`,
  );
  return db.execute(sql`
    with v(id, pid, prop, val) as (values ${sql.join(rows, sql`, `)}),
    target as (
      select v.id, v.val, p.ord - 1 as pi, r.ord - 1 as ri
      from v
        join hardware h on h.id = v.id
        cross join lateral jsonb_array_elements(h.peripherals) with ordinality as p(elem, ord)
        cross join lateral jsonb_array_elements(p.elem -> 'props') with ordinality as r(elem, ord)
      where p.elem ->> 'id' = v.pid and r.elem ->> 'name' = v.prop
    )
    update hardware as h
    set peripherals = jsonb_set(h.peripherals, array[t.pi::text, 'props', t.ri::text, 'value'], t.val),
        updated_at = now()
    from target as t
    where h.id = t.id`);
}

/** Messages of one board dropped since the last write: how many, the newest reason and when. */
export type InvalidMessagesWrite = { hardwareId: string; count: number; reason: string; at: Date };

/**
 * Adds many boards' dropped-message counts to their health in one statement. The count lives
 * in the database, so it adds up across server instances; it stops at the column's range.
 */
export async function addInvalidMessages(db: Db, writes: InvalidMessagesWrite[]): Promise<FailedWrite[]> {
  return writeBatchOrEach(writes, (batch) => {
    const rows = batch.map(
      (w) => sql`(${w.hardwareId}::uuid, ${w.count}::int, ${w.reason}::text, ${w.at.toISOString()}::timestamptz)`,
    );
    return db.execute(sql`
      update hardware as h
      set invalid_messages = least(h.invalid_messages::bigint + v.count, 2147483647)::int,
          last_invalid_reason = v.reason, last_invalid_at = v.at
      from (values ${sql.join(rows, sql`, `)}) as v(id, count, reason, at)
      where h.id = v.id`);
  });
}

/** A board's announced peripherals as stored, to learn names and types of its props. */
export async function readPeripherals(db: Db, hardwareId: string): Promise<Peripheral[]> {
  const result = await db.execute(sql`select peripherals from hardware where id = ${hardwareId}`);
  // node-postgres and PGlite both answer { rows }.
  const row = (result as unknown as { rows: { peripherals: unknown }[] }).rows[0];
  return Array.isArray(row?.peripherals) ? (row.peripherals as Peripheral[]) : [];
}

/**
 * When the board's row was last written (heartbeats, props, announces, online changes): with
 * several server instances sharing board traffic, another instance may be hearing a board this
 * one has not heard for a while, and its writes show it.
 */
export async function readLastWrite(db: Db, hardwareId: string): Promise<Date | null> {
  const result = await db.execute(sql`select updated_at from hardware where id = ${hardwareId}`);
  const value = (result as unknown as { rows: { updated_at: unknown }[] }).rows[0]?.updated_at;
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value : new Date(String(value));
}
