import type { AppDeps } from '../../deps.js';
import { startPollingWorker } from '../../lib/polling-worker.js';
import { claimDueMails, finishMail, retryMail, type OutboxRow } from './mail-outbox.repository.js';
import { outboxMail, readCondition, whyNotSend } from './notification-outbox.js';
import type { MailSender, MailSenderRun } from './ports.js';

/** Mails a node takes per claim. */
const CLAIM_BATCH = 20;
/** How long a claimed mail is this node's: longer than an SMTP exchange takes. */
const LEASE_MS = 60_000;
/** Attempts before a mail is dropped (about an hour and a half of SMTP down, with the backoff below). */
export const MAX_ATTEMPTS = 20;
const FIRST_RETRY_MS = 5000;
const MAX_RETRY_MS = 5 * 60_000;

/** The wait before attempt `attempts + 1`: 5 s, 10 s, 20 s... capped at 5 minutes. */
export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts, 16));
}

/**
 * Sends the mail outbox, on every node (docs/architecture.md, Notifications): each polls
 * (MAIL_OUTBOX_POLL_MS), claims due rows in one statement with FOR UPDATE SKIP LOCKED and a lease,
 * checks each row's condition again, sends it and marks it sent. A failed send goes back to
 * pending with a growing delay; after MAX_ATTEMPTS it is dropped. A node that dies mid-send leaves
 * its lease to expire and another node sends the row (the one case a mail may go twice).
 */
export function startMailSender(deps: AppDeps, options: { pollMs?: number } = {}): MailSender {
  return startPollingWorker({
    what: 'mail outbox',
    pollMs: options.pollMs ?? deps.config.MAIL_OUTBOX_POLL_MS,
    logger: deps.logger,
    pass: (node) => sendDue(deps, node),
  });
}

/** One pass: claim and handle due mails until none is left. */
export async function sendDue(deps: AppDeps, node: string): Promise<MailSenderRun> {
  const result: MailSenderRun = { sent: 0, dropped: 0, failed: 0 };
  for (;;) {
    const now = deps.clock.now();
    const rows = await claimDueMails(deps.db, { now, node, leaseUntil: new Date(now.getTime() + LEASE_MS), limit: CLAIM_BATCH });
    if (!rows.length) return result;
    for (const row of rows) {
      result[await sendOne(deps, { row, node })] += 1;
      // Let HTTP, sockets and timers in between rows (needed while PGlite answered in this thread).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // A failed row is pending again at a later time; a pass never spins on it.
    if (rows.length < CLAIM_BATCH) return result;
  }
}

async function sendOne(deps: AppDeps, claimed: { row: OutboxRow; node: string }): Promise<keyof MailSenderRun> {
  const { row, node } = claimed;
  const hold = { id: row.id, node };
  const condition = readCondition(row);
  const why = condition ? await whyNotSend(deps, condition) : 'its condition cannot be read';
  if (why || !condition) {
    await finishMail(deps.db, hold, { state: 'dropped', at: deps.clock.now(), why: why ?? undefined });
    deps.logger.debug({ mail: { id: row.id, kind: row.kind }, why }, 'notification mail dropped');
    return 'dropped';
  }
  try {
    await deps.mailer.send(outboxMail(deps, row, condition));
  } catch (error) {
    const attempts = row.attempts + 1;
    const message = error instanceof Error ? error.message : String(error);
    if (attempts >= MAX_ATTEMPTS) {
      await finishMail(deps.db, hold, { state: 'dropped', at: deps.clock.now(), why: `gave up after ${attempts} attempts: ${message}` });
      deps.logger.error({ mail: { id: row.id, kind: row.kind, to: row.toEmail }, attempts }, `notification mail dropped after ${attempts} failed attempts: ${message}`);
    } else {
      await retryMail(deps.db, hold, { notBefore: new Date(deps.clock.now().getTime() + retryDelay(row.attempts)), error: message });
      deps.logger.warn({ mail: { id: row.id, kind: row.kind }, attempts }, `notification mail not sent, retried later: ${message}`);
    }
    return 'failed';
  }
  await finishMail(deps.db, hold, { state: 'sent', at: deps.clock.now() });
  return 'sent';
}
