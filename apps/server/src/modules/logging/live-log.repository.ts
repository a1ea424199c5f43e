import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { liveLogLeases } from '../../db/schema.js';
import type { LogSource } from './ports.js';

/** One user's live-log lease on one device. */
export type LeaseRow = { source: LogSource; deviceId: string; userId: string; expiresAt: Date };

/** Takes or renews a user's lease on a device until `expiresAt`. */
export async function upsertLease(db: Db, lease: LeaseRow): Promise<void> {
  await db
    .insert(liveLogLeases)
    .values(lease)
    .onConflictDoUpdate({ target: [liveLogLeases.source, liveLogLeases.deviceId, liveLogLeases.userId], set: { expiresAt: sql`excluded.expires_at` } });
}

/** Gives up a user's lease on a device. */
export async function deleteLease(db: Db, lease: Omit<LeaseRow, 'expiresAt'>): Promise<void> {
  await db
    .delete(liveLogLeases)
    .where(and(eq(liveLogLeases.source, lease.source), eq(liveLogLeases.deviceId, lease.deviceId), eq(liveLogLeases.userId, lease.userId)));
}

/** Every lease unexpired at `now` (what each node re-reads about every second). */
export async function listLiveLeases(db: Db, now: Date): Promise<LeaseRow[]> {
  return db.select().from(liveLogLeases).where(gt(liveLogLeases.expiresAt, now));
}

/** Removes leases that expired before `before` (the console stopped renewing them). */
export async function deleteExpiredLeases(db: Db, before: Date): Promise<void> {
  await db.delete(liveLogLeases).where(lt(liveLogLeases.expiresAt, before));
}
