import { NOTIFICATION_TOGGLE_LABELS, type NotificationToggle } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { exhibitNotificationMail, unsubscribeHeaders } from '../../mail/notification-templates.js';
import type { Mail } from '../../mail/mailer.js';
import { loadGrants } from '../access/grants.js';
import { insertOutboxMails, type NewOutboxMail, type OutboxRow } from './mail-outbox.repository.js';
import { findExhibitContext, findToggles, findUserAccess, listExhibitSubscribers, type ExhibitContext, type ExhibitSubscriber } from './notifications.repository.js';
import { unsubscribeLink } from './unsubscribe-token.js';

/** The console tab a notification links to. */
export type NotificationTab = 'overview' | 'hardware' | 'logs' | 'scheduling';

/**
 * What the sender checks again just before a mail goes (stored as JSON in `mail_outbox.condition`):
 * the user still has access to the exhibit and the toggle is still on; for an offline mail, the
 * exhibit is still offline since the same moment. `toggle` null: a mail about a deleted exhibit,
 * which has nothing left to check. `rate` keeps what a rate-limited mail counts.
 */
export type MailCondition = {
  userId: string;
  exhibitId: string;
  toggle: NotificationToggle | null;
  /** ISO time the exhibit went offline (its `lastOnlineChange`). */
  offlineSince?: string;
  rate?: { first: string; more: number; board: string };
};

/** What happened to an exhibit, to tell its subscribed users. */
export type ExhibitNotice = {
  /** The outbox kind, e.g. 'notification.offline'. */
  kind: string;
  toggle: NotificationToggle;
  exhibit: ExhibitContext;
  headline: string;
  details: string[];
  tab: NotificationTab;
  /** The cause, unique per event: each user's dedupe key is this plus their id. */
  cause: string;
  notBefore?: Date;
  offlineSince?: Date;
};

/** The console link of an exhibit's tab. */
export function consoleLink(deps: AppDeps, exhibit: ExhibitContext, tab: NotificationTab): string {
  return `${deps.config.publicUrl}/organization/${exhibit.organizationId}/site/${exhibit.siteId}/exhibits/${exhibit.id}/${tab}`;
}

/** The users of the exhibit who want mail for `toggle` (the master switch and that toggle on). */
export async function listSubscribed(deps: AppDeps, exhibitId: string, toggle: NotificationToggle): Promise<ExhibitSubscriber[]> {
  const all = await listExhibitSubscribers(deps.db, exhibitId);
  return all.filter((s) => s.toggles.notify && s.toggles[toggle]);
}

/** The outbox row of one notice to one user. */
export function noticeMail(deps: AppDeps, notice: ExhibitNotice & { user: { userId: string; email: string }; rate?: MailCondition['rate'] }): NewOutboxMail {
  const { exhibit, user, toggle } = notice;
  const mail = exhibitNotificationMail({
    to: user.email,
    place: { organization: exhibit.organizationName, site: exhibit.siteName, exhibit: exhibit.name },
    headline: notice.headline,
    details: notice.details,
    link: consoleLink(deps, exhibit, notice.tab),
    subscription: { label: NOTIFICATION_TOGGLE_LABELS[toggle], unsubscribeLink: linkFor(deps, { userId: user.userId, exhibitId: exhibit.id, toggle }) },
  });
  const condition: MailCondition = {
    userId: user.userId,
    exhibitId: exhibit.id,
    toggle,
    ...(notice.offlineSince ? { offlineSince: notice.offlineSince.toISOString() } : {}),
    ...(notice.rate ? { rate: notice.rate } : {}),
  };
  return {
    kind: notice.kind,
    toEmail: user.email,
    userId: user.userId,
    exhibitId: exhibit.id,
    subject: mail.subject,
    textBody: mail.text,
    dedupeKey: `${notice.cause}:${user.userId}`,
    condition: JSON.stringify(condition),
    notBefore: notice.notBefore ?? deps.clock.now(),
  };
}

function linkFor(deps: AppDeps, target: { userId: string; exhibitId: string; toggle: NotificationToggle }): string {
  return unsubscribeLink({ secrets: deps.secrets, publicUrl: deps.config.publicUrl }, target);
}

/** Queues a notice for every subscribed user (each once per cause); answers how many were queued. */
export async function enqueueNotice(deps: AppDeps, notice: ExhibitNotice): Promise<number> {
  const users = await listSubscribed(deps, notice.exhibit.id, notice.toggle);
  return insertOutboxMails(
    deps.db,
    users.map((user) => noticeMail(deps, { ...notice, user })),
  );
}

/**
 * Queues the deletion mail for the exhibit's users with notify_on_delete on, before its rows go:
 * the row holds the whole message, and nothing is checked again at sending (there is nothing left
 * to check, nor a toggle to turn off).
 */
export async function enqueueExhibitDeleted(deps: AppDeps, deletion: { exhibitId: string; by: string }): Promise<number> {
  const exhibit = await findExhibitContext(deps.db, deletion.exhibitId);
  if (!exhibit) return 0;
  const users = await listSubscribed(deps, exhibit.id, 'notify_on_delete');
  const mails = users.map((user): NewOutboxMail => {
    const mail = exhibitNotificationMail({
      to: user.email,
      place: { organization: exhibit.organizationName, site: exhibit.siteName, exhibit: exhibit.name },
      headline: 'deleted',
      details: [`The exhibit "${exhibit.name}" was deleted by ${deletion.by}.`],
      link: `${deps.config.publicUrl}/organization/${exhibit.organizationId}/site/${exhibit.siteId}/exhibits`,
      subscription: null,
    });
    const condition: MailCondition = { userId: user.userId, exhibitId: exhibit.id, toggle: null };
    return {
      kind: 'notification.deleted',
      toEmail: user.email,
      userId: user.userId,
      exhibitId: exhibit.id,
      subject: mail.subject,
      textBody: mail.text,
      dedupeKey: `deleted:${exhibit.id}:${user.userId}`,
      condition: JSON.stringify(condition),
      notBefore: deps.clock.now(),
    };
  });
  return insertOutboxMails(deps.db, mails);
}

/** Why a queued mail must not go any more, or null when it may. */
export async function whyNotSend(deps: AppDeps, condition: MailCondition): Promise<string | null> {
  if (condition.toggle === null) return null;
  const exhibit = await findExhibitContext(deps.db, condition.exhibitId);
  if (!exhibit) return 'the exhibit no longer exists';
  const user = await findUserAccess(deps.db, condition.userId);
  if (!user) return 'the user no longer exists';
  const grants = await loadGrants(deps.db, user);
  if (!grants.exhibitRole(exhibit)) return 'the user no longer has access to the exhibit';
  const toggles = await findToggles(deps.db, { exhibitId: exhibit.id, userId: user.id });
  if (!toggles.notify || !toggles[condition.toggle]) return `the user turned ${toggles.notify ? condition.toggle : 'notify'} off`;
  if (condition.offlineSince !== undefined) {
    const same = exhibit.lastOnlineChange?.getTime() === Date.parse(condition.offlineSince);
    if (exhibit.online || !same) return 'the exhibit came back online within the grace period';
  }
  return null;
}

/** The mail of an outbox row as the mailer sends it (with the one-click unsubscribe headers). */
export function outboxMail(deps: AppDeps, row: OutboxRow, condition: MailCondition): Mail {
  const mail: Mail = { to: row.toEmail, subject: row.subject, text: row.textBody };
  if (condition.toggle === null) return mail;
  return { ...mail, headers: unsubscribeHeaders(linkFor(deps, { userId: condition.userId, exhibitId: condition.exhibitId, toggle: condition.toggle })) };
}

/** The condition of a row (null when missing or unreadable: such a row is dropped). */
export function readCondition(row: OutboxRow): MailCondition | null {
  if (!row.condition) return null;
  try {
    const parsed = JSON.parse(row.condition) as MailCondition;
    return typeof parsed.userId === 'string' && typeof parsed.exhibitId === 'string' ? parsed : null;
  } catch {
    return null;
  }
}
