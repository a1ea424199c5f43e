import type { AppDeps } from '../../deps.js';
import { KeyedQueue } from '../../devices/keyed-queue.js';
import type { LogRecord } from '../logging/ports.js';
import { findLatestMail, findLatestMailByKeyPrefix, insertOutboxMails, updatePendingMail } from './mail-outbox.repository.js';
import { enqueueNotice, listSubscribed, noticeMail, readCondition, type ExhibitNotice } from './notification-outbox.js';
import { findBoardContext, findExhibitContext, type ExhibitContext } from './notifications.repository.js';

/** A recorded line, with its time. */
type Line = LogRecord & { at: Date };

/**
 * Devices whose lines are turned into mails at once. Each takes database connections beside the
 * API's, and a fleet of 10,000 boards going offline together records 10,000 lines at once. (The
 * API's 503s after such a storm come mostly from the boards' own offline writes, which this does
 * not limit: docs/performance.md.)
 */
export const NOTIFICATION_CONCURRENCY = 2;

/** At most one error mail per board and user in this window. */
export const BOARD_ERROR_WINDOW_MS = 10 * 60_000;

/** The offline line of a board rebooting on request (devices/board-presence.ts). */
const BOARD_REBOOTING = 'Offline: rebooting';

/** The lines of the scheduler that tell an exhibit's users something ran or did not. */
const SCHEDULE_OUTCOME = /^Scheduled event ".*" (ran \(\d+ ms after its time\)|of \S+ missed:)/s;

/**
 * Turns what the log recorder records into notification mails (docs/architecture.md,
 * Notifications): every event but deletion is recorded once, on the node that saw it, so that
 * node queues the mails. Lines of one device are handled in order (an exhibit's offline before
 * its online; a board's errors one by one for the rate limit), at most NOTIFICATION_CONCURRENCY
 * devices at a time.
 */
export function startNotificationTriggers(deps: AppDeps): { stop: () => Promise<void> } {
  const queue = new KeyedQueue(NOTIFICATION_CONCURRENCY);
  const stopListening = deps.logs.onRecord((line) => {
    const handler = handlerFor(line);
    if (!handler) return;
    queue
      .run(`${line.source}:${line.deviceId}`, () => handler(deps, line))
      .catch((error: unknown) => deps.logger.warn({ err: error, eventType: line.eventType }, 'queueing a notification failed'));
  });
  return {
    stop: async () => {
      stopListening();
      await queue.drain();
    },
  };
}

type Handler = (deps: AppDeps, line: Line) => Promise<void>;

function handlerFor(line: Line): Handler | null {
  if (line.source === 'hardware') {
    // A reboot someone asked for is not news to the exhibit's users.
    if (line.eventType === 'offline') return line.message === BOARD_REBOOTING ? null : boardOffline;
    if (line.eventType === 'error' && line.level === 'error') return boardError;
    return null;
  }
  switch (line.eventType) {
    case 'offline':
      return exhibitOffline;
    case 'online':
      return exhibitOnline;
    case 'opMode':
      return opModeChanged;
    case 'hardware':
      return hardwareChanged;
    case 'schedule':
      return SCHEDULE_OUTCOME.test(line.message) ? scheduleOutcome : null;
    case EXHIBIT_NOTIFICATION:
      return exhibitNotification;
    default:
      return null;
  }
}

/**
 * The event type of a line in which the exhibit itself asks to notify its users (its SDK's
 * "email the people on the notifications list"); its message is the mail's text.
 */
export const EXHIBIT_NOTIFICATION = 'notification';
/** At most one exhibit-sent notification mail per user and exhibit in this window (an exhibit in a loop must not flood mailboxes). */
export const EXHIBIT_NOTIFICATION_WINDOW_MS = 60_000;

/** Queues a notice about the line's exhibit, unless it is gone. */
async function noticeAbout(deps: AppDeps, line: Line, build: (exhibit: ExhibitContext) => ExhibitNotice | null): Promise<void> {
  const exhibit = await findExhibitContext(deps.db, line.deviceId);
  const notice = exhibit ? build(exhibit) : null;
  if (notice) await enqueueNotice(deps, notice);
}

/** Offline: a mail after the grace period, sent only if the exhibit is still offline since then. */
async function exhibitOffline(deps: AppDeps, line: Line): Promise<void> {
  await noticeAbout(deps, line, (exhibit) => {
    if (exhibit.online || !exhibit.lastOnlineChange) return null;
    const since = exhibit.lastOnlineChange;
    const grace = deps.config.NOTIFY_OFFLINE_GRACE_MS;
    return {
      kind: 'notification.offline',
      toggle: 'notify_connected',
      exhibit,
      headline: 'offline',
      details: [`The exhibit "${exhibit.name}" has been offline since ${since.toISOString()} (${line.message}).`],
      tab: 'overview',
      cause: `offline:${exhibit.id}:${since.getTime()}`,
      notBefore: new Date(since.getTime() + grace),
      offlineSince: since,
    };
  });
}

/** Back online: a mail to each user who was sent the offline mail of this outage (once per such mail). */
async function exhibitOnline(deps: AppDeps, line: Line): Promise<void> {
  const exhibit = await findExhibitContext(deps.db, line.deviceId);
  if (!exhibit) return;
  for (const user of await listSubscribed(deps, exhibit.id, 'notify_connected')) {
    const offline = await findLatestMail(deps.db, { kind: 'notification.offline', userId: user.userId, exhibitId: exhibit.id });
    if (offline?.state !== 'sent') continue;
    const notice: ExhibitNotice = {
      kind: 'notification.online',
      toggle: 'notify_connected',
      exhibit,
      headline: 'back online',
      details: [`The exhibit "${exhibit.name}" is back online since ${line.at.toISOString()} (${line.message}).`],
      tab: 'overview',
      cause: `online:${offline.id}`,
    };
    await insertOutboxMails(deps.db, [noticeMail(deps, { ...notice, user })]);
  }
}

async function opModeChanged(deps: AppDeps, line: Line): Promise<void> {
  await noticeAbout(deps, line, (exhibit) => ({
    kind: 'notification.opMode',
    toggle: 'notify_op_mode',
    exhibit,
    headline: 'op mode changed',
    details: [`${line.message} (${line.at.toISOString()}).`],
    tab: 'overview',
    cause: `opMode:${exhibit.id}:${line.at.getTime()}`,
  }));
}

/** The exhibit's own notification: to the users with the exhibit's notifications on (the master switch). */
async function exhibitNotification(deps: AppDeps, line: Line): Promise<void> {
  await noticeAbout(deps, line, (exhibit) => ({
    kind: 'notification.exhibit',
    toggle: 'notify',
    exhibit,
    headline: 'a message from the exhibit',
    details: [`${line.message} (${line.at.toISOString()}).`],
    tab: 'logs',
    cause: `exhibitNotification:${exhibit.id}:${Math.floor(line.at.getTime() / EXHIBIT_NOTIFICATION_WINDOW_MS)}`,
  }));
}

async function hardwareChanged(deps: AppDeps, line: Line): Promise<void> {
  await noticeAbout(deps, line, (exhibit) => ({
    kind: 'notification.hardware',
    toggle: 'notify_hardware_change',
    exhibit,
    headline: 'hardware changed',
    details: [`${line.message} (${line.at.toISOString()}).`],
    tab: 'hardware',
    cause: `hardware:${exhibit.id}:${line.at.getTime()}`,
  }));
}

async function scheduleOutcome(deps: AppDeps, line: Line): Promise<void> {
  const failed = line.level === 'warn' || line.level === 'error';
  await noticeAbout(deps, line, (exhibit) => ({
    kind: 'notification.schedule',
    toggle: 'notify_scene_changes',
    exhibit,
    headline: failed ? 'a scheduled event failed' : 'a scheduled event ran',
    details: [`${line.message} (${line.at.toISOString()}).`],
    tab: 'scheduling',
    cause: `schedule:${exhibit.id}:${line.at.getTime()}`,
  }));
}

/** A board attached to an exhibit went offline: its exhibit's users are told at once (no grace). */
async function boardOffline(deps: AppDeps, line: Line): Promise<void> {
  const board = await findBoardContext(deps.db, line.deviceId);
  if (!board?.exhibitId) return;
  const exhibit = await findExhibitContext(deps.db, board.exhibitId);
  if (!exhibit) return;
  await enqueueNotice(deps, {
    kind: 'notification.hardware',
    toggle: 'notify_hardware_change',
    exhibit,
    headline: `board "${board.name}" offline`,
    details: [`The board "${board.name}" of the exhibit went offline at ${line.at.toISOString()} (${line.message}).`],
    tab: 'hardware',
    cause: `boardOffline:${board.id}:${(board.lastOnlineChange ?? line.at).getTime()}`,
  });
}

/**
 * A board of the exhibit logged an error: the first one is mailed at once; those that follow
 * within BOARD_ERROR_WINDOW_MS of a mail go together in one mail at the end of the window
 * ("and N more"), so each user gets at most one such mail per board per window.
 */
async function boardError(deps: AppDeps, line: Line): Promise<void> {
  const board = await findBoardContext(deps.db, line.deviceId);
  if (!board?.exhibitId) return;
  const exhibit = await findExhibitContext(deps.db, board.exhibitId);
  if (!exhibit) return;
  const notice = (rate: { first: string; more: number }): ExhibitNotice => ({
    kind: 'notification.boardError',
    toggle: 'notify_hardware_notification',
    exhibit,
    headline: `board "${board.name}" logged an error`,
    details: [
      `The board "${board.name}" of the exhibit logged an error: ${rate.first}`,
      ...(rate.more ? [`... and ${rate.more} more ${rate.more === 1 ? 'error' : 'errors'} since (see its logs).`] : []),
    ],
    tab: 'logs',
    cause: '',
  });
  const now = deps.clock.now();
  for (const user of await listSubscribed(deps, exhibit.id, 'notify_hardware_notification')) {
    const prefix = `boardError:${board.id}:${user.userId}:`;
    const latest = await findLatestMailByKeyPrefix(deps.db, prefix);
    const waiting = latest?.state === 'pending' ? readCondition(latest)?.rate : undefined;
    if (latest && waiting) {
      const rate = { ...waiting, more: waiting.more + 1 };
      const row = noticeMail(deps, { ...notice(rate), user, rate });
      if (await updatePendingMail(deps.db, latest.id, { textBody: row.textBody, condition: row.condition! })) continue;
    }
    const windowEnd = latest ? latest.notBefore.getTime() + BOARD_ERROR_WINDOW_MS : 0;
    const notBefore = new Date(Math.max(now.getTime(), windowEnd));
    const rate = { first: line.message, more: 0, board: board.id };
    const row = noticeMail(deps, { ...notice(rate), user, rate, notBefore });
    await insertOutboxMails(deps.db, [{ ...row, dedupeKey: `${prefix}${notBefore.getTime()}` }]);
  }
}
