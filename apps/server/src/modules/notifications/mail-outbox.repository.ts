import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxMail = Pick<typeof mailOutbox.$inferInsert, 'kind' | 'toEmail' | 'userId' | 'exhibitId' | 'subject' | 'textBody' | 'dedupeKey' | 'condition' | 'notBefore'>;

/** Queues mails; one whose dedupe key is already queued (the same cause) is left out. Answers how many were queued. */
export async function insertOutboxMails(db: Db, mails: NewOutboxMail[]): Promise<number> {
  if (!mails.length) return 0;
  const rows = await db.insert(mailOutbox).values(mails).onConflictDoNothing({ target: mailOutbox.dedupeKey }).returning({ id: mailOutbox.id });
  return rows.length;
}

type Claim = { now: Date; node: string; leaseUntil: Date; limit: number };

/**
 * Takes up to `limit` mails due: pending ones whose time has come, and ones being sent whose
 * node's lease ran out (it died mid-send). Rows another node holds locked are skipped.
 */
export async function claimDueMails(db: Db, claim: Claim): Promise<OutboxRow[]> {
  const o = mailOutbox;
  const due = db
    .select({ id: o.id })
    .from(o)
    .where(sql`(${o.state} = 'pending' and ${o.notBefore} <= ${claim.now}) or (${o.state} = 'sending' and ${o.leaseUntil} < ${claim.now})`)
    .orderBy(o.notBefore)
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db.update(o).set({ state: 'sending', leaseOwner: claim.node, leaseUntil: claim.leaseUntil }).where(inArray(o.id, due)).returning();
}

/** Ends a mail this node holds: sent, or dropped (why in `lastError`). */
export async function finishMail(db: Db, hold: { id: string; node: string }, end: { state: 'sent' | 'dropped'; at: Date; why?: string }): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ state: end.state, sentAt: end.state === 'sent' ? end.at : null, lastError: end.why ?? null, leaseOwner: null, leaseUntil: null })
    .where(and(eq(mailOutbox.id, hold.id), eq(mailOutbox.leaseOwner, hold.node)));
}

/** Puts a mail that failed back in the queue for `notBefore`, counting the attempt. */
export async function retryMail(db: Db, hold: { id: string; node: string }, retry: { notBefore: Date; error: string }): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ state: 'pending', attempts: sql`${mailOutbox.attempts} + 1`, notBefore: retry.notBefore, lastError: retry.error, leaseOwner: null, leaseUntil: null })
    .where(and(eq(mailOutbox.id, hold.id), eq(mailOutbox.leaseOwner, hold.node)));
}

/** The newest mail of a kind to a user about an exhibit (any state). */
export async function findLatestMail(db: Db, key: { kind: string; userId: string; exhibitId: string }): Promise<OutboxRow | undefined> {
  const [row] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, key.kind), eq(mailOutbox.userId, key.userId), eq(mailOutbox.exhibitId, key.exhibitId)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return row;
}

/** The newest mail whose dedupe key starts with `prefix` (one board's error mails to one user). */
export async function findLatestMailByKeyPrefix(db: Db, prefix: string): Promise<OutboxRow | undefined> {
  const [row] = await db
    .select()
    .from(mailOutbox)
    .where(sql`${mailOutbox.dedupeKey} like ${`${prefix}%`}`)
    .orderBy(desc(mailOutbox.notBefore))
    .limit(1);
  return row;
}

/** Rewrites a mail still waiting (a rate-limited mail counting more events); false when it already left. */
export async function updatePendingMail(db: Db, id: string, change: { textBody: string; condition: string }): Promise<boolean> {
  const rows = await db
    .update(mailOutbox)
    .set(change)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, 'pending')))
    .returning({ id: mailOutbox.id });
  return rows.length > 0;
}

/** Every mail about an exhibit, oldest first (tests and support look at them). */
export async function listExhibitMails(db: Db, exhibitId: string): Promise<OutboxRow[]> {
  return db.select().from(mailOutbox).where(eq(mailOutbox.exhibitId, exhibitId)).orderBy(mailOutbox.createdAt);
}

/** How many mails are due and not sent: pending ones whose time has come, and sends whose node's lease ran out (for the metrics). */
export async function countDueMails(db: Db, now: Date): Promise<number> {
  const o = mailOutbox;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(o)
    .where(sql`(${o.state} = 'pending' and ${o.notBefore} <= ${now}) or (${o.state} = 'sending' and ${o.leaseUntil} < ${now})`);
  return row?.count ?? 0;
}
