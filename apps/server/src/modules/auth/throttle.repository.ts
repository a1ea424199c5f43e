import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authThrottles } from '../../db/schema.js';

export type ThrottleRow = typeof authThrottles.$inferSelect;

/** How one key counts: attempts that need no wait, and how long a quiet spell resets the count. */
export type ThrottleCount = {
  /** Attempts counted before the first wait is imposed. */
  free: number;
  /** Milliseconds without an attempt (and past any wait) after which the count starts again. */
  quietMs: number;
};

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Takes one attempt on `key` in one atomic upsert, so attempts on several nodes at once count
 * one by one. The attempt is refused (null) while the key waits (`blocked_until` in the future),
 * and also while its free attempts are spent and the attempt that spent the last one has not
 * finished yet (`blocked_until` null): that is what keeps a burst of parallel guesses to the free
 * budget. A taken attempt clears `blocked_until` until its outcome sets the next wait.
 */
export async function takeThrottleAttempt(
  db: Db,
  { key, now, count }: { key: string; now: Date; count: ThrottleCount },
): Promise<{ failures: number } | null> {
  const t = authThrottles;
  const quiet = sql`coalesce(${t.blockedUntil}, ${t.lastFailureAt}) <= ${at(new Date(now.getTime() - count.quietMs))}`;
  const rows = await db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: now, lastFailureAt: now, blockedUntil: null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${quiet} then 1 else ${t.failures} + 1 end`,
        windowStartedAt: sql`case when ${quiet} then ${at(now)} else ${t.windowStartedAt} end`,
        lastFailureAt: now,
        blockedUntil: null,
      },
      setWhere: sql`${quiet} or ${t.blockedUntil} <= ${at(now)} or (${t.blockedUntil} is null and ${t.failures} < ${count.free})`,
    })
    .returning({ failures: t.failures });
  return rows[0] ?? null;
}

/** Makes `key` wait until `until` (never shortening a longer wait already set). */
export async function blockThrottleKey(db: Db, key: string, until: Date): Promise<void> {
  const t = authThrottles;
  await db
    .update(t)
    .set({ blockedUntil: sql`greatest(coalesce(${t.blockedUntil}, ${at(until)}), ${at(until)})` })
    .where(eq(t.key, key));
}

/**
 * Gives a taken attempt back (it succeeded where only failures count, or another key refused).
 * When the count stays past the free budget, the key is left open (`blocked_until` now) rather
 * than waiting for an outcome that will not come.
 */
export async function returnThrottleAttempt(db: Db, { key, now, free }: { key: string; now: Date; free: number }): Promise<void> {
  const t = authThrottles;
  await db
    .update(t)
    .set({
      failures: sql`greatest(${t.failures} - 1, 0)`,
      blockedUntil: sql`case when ${t.blockedUntil} is null and ${t.failures} - 1 >= ${free} then ${at(now)} else ${t.blockedUntil} end`,
    })
    .where(eq(t.key, key));
}

export async function findThrottle(db: Db, key: string): Promise<ThrottleRow | undefined> {
  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, key));
  return row;
}

export async function deleteThrottle(db: Db, key: string): Promise<void> {
  await db.delete(authThrottles).where(eq(authThrottles.key, key));
}

/** Deletes keys with no attempt and no wait since `before`. */
export async function deleteQuietThrottles(db: Db, before: Date): Promise<void> {
  await db.delete(authThrottles).where(sql`coalesce(${authThrottles.blockedUntil}, ${authThrottles.lastFailureAt}) < ${at(before)}`);
}
