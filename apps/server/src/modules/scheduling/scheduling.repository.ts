import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { SETTING_IDS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibits, scheduledEvents, siteSettings, type ScheduleStep } from '../../db/schema.js';

/**
 * scheduled_events: one row per occurrence. The console's reads and writes, and the executor's
 * claims: a due row is taken with FOR UPDATE SKIP LOCKED and a lease in one statement, so two
 * nodes never take the same row, and a row whose lease ran out (its node died) is taken again.
 */

export type ScheduledEventRow = typeof scheduledEvents.$inferSelect;
export type { ScheduleStep };
export type NewScheduledEvent = typeof scheduledEvents.$inferInsert;

/** The exhibit's occurrences starting in [start, end) (all when open), by start. */
export async function listScheduledEvents(db: Db, exhibitId: string, range: { start?: Date; end?: Date }): Promise<ScheduledEventRow[]> {
  return db
    .select()
    .from(scheduledEvents)
    .where(
      and(
        eq(scheduledEvents.exhibitId, exhibitId),
        range.start ? gte(scheduledEvents.startDate, range.start) : undefined,
        range.end ? lt(scheduledEvents.startDate, range.end) : undefined,
      ),
    )
    .orderBy(asc(scheduledEvents.startDate))
    .limit(5000);
}

export async function findScheduledEvent(db: Db, id: string): Promise<ScheduledEventRow | undefined> {
  const [row] = await db.select().from(scheduledEvents).where(eq(scheduledEvents.id, id));
  return row;
}

export async function listSeries(db: Db, recurringId: string): Promise<ScheduledEventRow[]> {
  return db.select().from(scheduledEvents).where(eq(scheduledEvents.recurringId, recurringId)).orderBy(asc(scheduledEvents.startDate));
}

export async function insertScheduledEvents(db: Db, rows: NewScheduledEvent[]): Promise<ScheduledEventRow[]> {
  if (!rows.length) return [];
  return db.insert(scheduledEvents).values(rows).returning();
}

/** Changes one occurrence that has not run yet; nothing when it has (or is gone). */
export async function updatePendingEvent(db: Db, id: string, set: Partial<NewScheduledEvent>): Promise<ScheduledEventRow | undefined> {
  const [row] = await db
    .update(scheduledEvents)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(scheduledEvents.id, id), eq(scheduledEvents.state, 'scheduled')))
    .returning();
  return row;
}

/**
 * Replaces the occurrences of a series that have not run yet, from the edited one on (those
 * starting before it stay as they are), with new ones, in one transaction; answers the new rows,
 * or nothing when the occurrence being edited already ran.
 */
export async function replacePendingSeries(
  db: Db,
  replace: { recurringId: string; editedId: string; rows: NewScheduledEvent[] },
): Promise<ScheduledEventRow[] | undefined> {
  return db.transaction(async (tx) => {
    const [edited] = await tx
      .select({ state: scheduledEvents.state, startDate: scheduledEvents.startDate })
      .from(scheduledEvents)
      .where(eq(scheduledEvents.id, replace.editedId))
      .for('update');
    if (!edited || edited.state !== 'scheduled') return undefined;
    await tx
      .delete(scheduledEvents)
      .where(
        and(eq(scheduledEvents.recurringId, replace.recurringId), eq(scheduledEvents.state, 'scheduled'), gte(scheduledEvents.startDate, edited.startDate)),
      );
    await tx.delete(scheduledEvents).where(eq(scheduledEvents.id, replace.editedId));
    return insertScheduledEvents(tx, replace.rows);
  });
}

/** Deletes occurrences that are not running; answers how many. */
export async function deleteEvents(db: Db, where: { ids?: string[]; recurringId?: string }): Promise<number> {
  const rows = await db
    .delete(scheduledEvents)
    .where(
      and(
        where.ids ? inArray(scheduledEvents.id, where.ids) : undefined,
        where.recurringId ? eq(scheduledEvents.recurringId, where.recurringId) : undefined,
        sql`${scheduledEvents.state} <> 'running'`,
        sql`${scheduledEvents.endState} <> 'restoring'`,
      ),
    )
    .returning({ id: scheduledEvents.id });
  return rows.length;
}

/** The site time zone setting of the exhibit's site ('' when unset), or undefined when the exhibit is gone. */
export async function findExhibitSiteZone(db: Db, exhibitId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ zone: siteSettings.value })
    .from(exhibits)
    .leftJoin(siteSettings, and(eq(siteSettings.siteId, exhibits.siteId), eq(siteSettings.idString, SETTING_IDS.siteTimeZone)))
    .where(eq(exhibits.id, exhibitId));
  return row ? (row.zone ?? '') : undefined;
}

/** Occurrences still waiting whose time passed more than the grace ago (no server ran then): marked missed. */
export async function markMissed(db: Db, before: Date): Promise<Pick<ScheduledEventRow, 'id' | 'exhibitId' | 'name' | 'startDate'>[]> {
  return db
    .update(scheduledEvents)
    .set({ state: 'missed', updatedAt: new Date() })
    .where(and(eq(scheduledEvents.state, 'scheduled'), lt(scheduledEvents.startDate, before)))
    .returning({ id: scheduledEvents.id, exhibitId: scheduledEvents.exhibitId, name: scheduledEvents.name, startDate: scheduledEvents.startDate });
}

export type Claim = { now: Date; node: string; leaseUntil: Date; limit: number };

/**
 * Takes up to `limit` occurrences due to start: waiting ones whose time has come (and is not
 * past the missed grace, `notBefore`), and running ones whose node's lease ran out. Rows another
 * node holds locked are skipped, never waited for.
 */
export async function claimDueStarts(db: Db, claim: Claim & { notBefore: Date }): Promise<ScheduledEventRow[]> {
  const e = scheduledEvents;
  const due = db
    .select({ id: e.id })
    .from(e)
    .where(
      sql`(${e.state} = 'scheduled' and ${e.startDate} <= ${claim.now} and ${e.startDate} >= ${claim.notBefore}) or (${e.state} = 'running' and ${e.leaseUntil} < ${claim.now})`,
    )
    .orderBy(asc(e.startDate))
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db
    .update(e)
    .set({ state: 'running', leaseOwner: claim.node, leaseUntil: claim.leaseUntil })
    .where(inArray(e.id, due))
    .returning();
}

/** Takes up to `limit` completed occurrences whose end has come and whose changes are to be put back. */
export async function claimDueEnds(db: Db, claim: Claim): Promise<ScheduledEventRow[]> {
  const e = scheduledEvents;
  const due = db
    .select({ id: e.id })
    .from(e)
    .where(
      sql`(${e.endState} = 'pending' and ${e.endDate} <= ${claim.now}) or (${e.endState} = 'restoring' and ${e.leaseUntil} < ${claim.now})`,
    )
    .orderBy(asc(e.endDate))
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db
    .update(e)
    .set({ endState: 'restoring', leaseOwner: claim.node, leaseUntil: claim.leaseUntil })
    .where(inArray(e.id, due))
    .returning();
}

/** Records a step of a run this node holds and renews its lease; false when the lease is no longer ours. */
export async function appendStep(db: Db, hold: { id: string; node: string; leaseUntil: Date }, step: ScheduleStep): Promise<boolean> {
  const rows = await db
    .update(scheduledEvents)
    .set({ steps: sql`${scheduledEvents.steps} || ${JSON.stringify([step])}::jsonb`, leaseUntil: hold.leaseUntil })
    .where(and(eq(scheduledEvents.id, hold.id), eq(scheduledEvents.leaseOwner, hold.node)))
    .returning({ id: scheduledEvents.id });
  return rows.length > 0;
}

/** Ends a run this node holds: the start's outcome, or the end's. */
export async function finishRun(
  db: Db,
  hold: { id: string; node: string },
  set: Pick<Partial<NewScheduledEvent>, 'state' | 'endState' | 'ranAt' | 'steps'>,
): Promise<boolean> {
  const rows = await db
    .update(scheduledEvents)
    .set({ ...set, leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(scheduledEvents.id, hold.id), eq(scheduledEvents.leaseOwner, hold.node)))
    .returning({ id: scheduledEvents.id });
  return rows.length > 0;
}

/** The earliest time anything is due (a start or an end), to sleep until then; null when nothing waits. */
export async function findNextDue(db: Db): Promise<Date | null> {
  const e = scheduledEvents;
  const [start] = await db.select({ at: e.startDate }).from(e).where(inArray(e.state, ['scheduled', 'running'])).orderBy(asc(e.startDate)).limit(1);
  const [end] = await db.select({ at: e.endDate }).from(e).where(inArray(e.endState, ['pending', 'restoring'])).orderBy(asc(e.endDate)).limit(1);
  const times = [start?.at, end?.at].filter((d): d is Date => d instanceof Date);
  return times.length ? new Date(Math.min(...times.map((d) => d.getTime()))) : null;
}

/** Waiting occurrences of these exhibits whose setting changes name the file in a FileSelection setting. */
export async function findEventsUsingFile(
  db: Db,
  where: { exhibitIds: string[]; fileName: string },
): Promise<Pick<ScheduledEventRow, 'id' | 'name' | 'startDate' | 'exhibitId'>[]> {
  if (!where.exhibitIds.length) return [];
  const e = scheduledEvents;
  return db
    .select({ id: e.id, name: e.name, startDate: e.startDate, exhibitId: e.exhibitId })
    .from(e)
    .where(and(inArray(e.exhibitId, where.exhibitIds), eq(e.state, 'scheduled'), usesFile(where.fileName)))
    .orderBy(asc(e.startDate));
}

/** An event row's setting change `c` (a jsonb element) names the file in a FileSelection setting. */
function fileChange(fileName: string) {
  return sql`c -> 'value' = to_jsonb(${fileName}::text) and exists (
    select 1 from exhibit_settings s
    where s.exhibit_id = ${scheduledEvents.exhibitId} and s.manifest_id = c ->> 'settingId' and s.type = 'FileSelection')`;
}

function usesFile(fileName: string) {
  return sql`exists (select 1 from jsonb_array_elements(${scheduledEvents.changes} -> 'settings') c where ${fileChange(fileName)})`;
}

/** Removes the setting changes naming the file from the waiting occurrences of these exhibits; answers the rows changed. */
export async function removeFileFromEvents(db: Db, where: { exhibitIds: string[]; fileName: string }): Promise<{ id: string; exhibitId: string }[]> {
  if (!where.exhibitIds.length) return [];
  const e = scheduledEvents;
  return db
    .update(e)
    .set({
      changes: sql`jsonb_set(${e.changes}, '{settings}', (
        select coalesce(jsonb_agg(c), '[]'::jsonb) from jsonb_array_elements(${e.changes} -> 'settings') c
        where not (${fileChange(where.fileName)})))`,
      updatedAt: new Date(),
    })
    .where(and(inArray(e.exhibitId, where.exhibitIds), eq(e.state, 'scheduled'), usesFile(where.fileName)))
    .returning({ id: e.id, exhibitId: e.exhibitId });
}

/** Every occurrence of these exhibits, with its lease and steps: the tests of the executor read them. */
export async function listEventsOfExhibits(db: Db, exhibitIds: string[]): Promise<ScheduledEventRow[]> {
  if (!exhibitIds.length) return [];
  return db.select().from(scheduledEvents).where(inArray(scheduledEvents.exhibitId, exhibitIds)).orderBy(asc(scheduledEvents.startDate));
}

/** How many occurrences are in each state (of these exhibits, or all): the bench and tests read it. */
export async function countByState(db: Db, exhibitIds?: string[]): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: scheduledEvents.state, n: sql<number>`count(*)::int` })
    .from(scheduledEvents)
    .where(exhibitIds ? inArray(scheduledEvents.exhibitId, exhibitIds) : undefined)
    .groupBy(scheduledEvents.state);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** How many starts and ends are due and not taken by a node: waiting rows whose time has come, and runs whose lease ran out (for the metrics). */
export async function countDueEvents(db: Db, now: Date): Promise<number> {
  const e = scheduledEvents;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(e)
    .where(
      sql`(${e.state} = 'scheduled' and ${e.startDate} <= ${now}) or (${e.state} = 'running' and ${e.leaseUntil} < ${now}) or (${e.endState} = 'pending' and ${e.endDate} <= ${now}) or (${e.endState} = 'restoring' and ${e.leaseUntil} < ${now})`,
    );
  return row?.count ?? 0;
}
