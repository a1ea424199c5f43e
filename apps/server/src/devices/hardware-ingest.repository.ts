import { sql } from 'drizzle-orm';
import type { HeartbeatMessage, Peripheral, Prop } from '@plinth/shared';
import type { Db } from '../db/client.js';

/** One heartbeat to store: the board, what it said and when it arrived. */
export type HeartbeatWrite = { hardwareId: string; beat: HeartbeatMessage; at: Date };

/**
 * Stores many boards' heartbeats in one statement (the board traffic's hot path: 10,000 boards
 * at the default 16 s make 625 a second). Unknown ids are skipped.
 */
export async function writeHeartbeats(db: Db, writes: HeartbeatWrite[]): Promise<void> {
  if (!writes.length) return;
  const rows = writes.map(
    ({ hardwareId, beat, at }) =>
      sql`(${hardwareId}::uuid, ${beat.voltage}::float8, ${beat.temp}::float8, ${beat.uptime}::float8, ${beat.exhibitState}::text, ${beat.exhibitIP}::text, ${at.toISOString()}::timestamptz)`,
  );
  await db.execute(sql`
    update hardware as h
    set voltage = v.voltage, temp = v.temp, uptime = v.uptime, exhibit_state = v.exhibit_state,
        exhibit_ip = v.exhibit_ip, updated_at = v.at
    from (values ${sql.join(rows, sql`, `)}) as v(id, voltage, temp, uptime, exhibit_state, exhibit_ip, at)
    where h.id = v.id`);
}

/** One prop value to store. */
export type PropWrite = { hardwareId: string; peripheralId: string; propName: string; value: Prop['value'] };

/**
 * Stores many props' new values inside the boards' announced peripherals in one statement. An
 * UPDATE changes a row once, so the batch must hold at most one prop per board (the caller
 * splits it); props a board did not announce are skipped.
 */
export async function writePropValues(db: Db, writes: PropWrite[]): Promise<void> {
  if (!writes.length) return;
  const rows = writes.map(
    (w) => sql`(${w.hardwareId}::uuid, ${w.peripheralId}::text, ${w.propName}::text, ${JSON.stringify(w.value)}::jsonb)`,
  );
  await db.execute(sql`
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
