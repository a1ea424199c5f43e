import { can, NOTIFICATION_TOGGLE_LABELS, NOTIFICATION_TOGGLES, type NotificationSubscription, type NotificationToggle } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import type { Grants } from '../access/grants.js';
import { presentSubscription } from './notifications.presenter.js';
import { enqueueExhibitDeleted } from './notification-outbox.js';
import { findExhibitContext, findUserAccess, isExhibitUser, listExhibitSubscribers, saveToggles, type Toggles } from './notifications.repository.js';
import { readUnsubscribeToken } from './unsubscribe-token.js';

/** The toggles of every user of the exhibit (right seeNotifications); the caller may edit their own, a MANAGER anyone's. */
export async function listNotifications(deps: AppDeps, grants: Grants, exhibitId: string): Promise<NotificationSubscription[]> {
  const role = await authorizeExhibit(deps.db, grants, { exhibitId, right: 'seeNotifications' });
  const isManager = can(role, 'manageUsers');
  const subscribers = await listExhibitSubscribers(deps.db, exhibitId);
  return subscribers.map((s) => presentSubscription(s, { canEdit: isManager || s.userId === grants.userId }));
}

/** A change of toggles: the caller's own, or (`userId`) another exhibit user's. */
export type NotificationsChange = Partial<Toggles> & { exhibitId: string; userId?: string };

/**
 * Changes toggles. Anyone with seeNotifications changes their own, if they are a user of the
 * exhibit; changing another user's needs manageUsers there (a MANAGER or a platform admin).
 */
export async function updateNotifications(deps: AppDeps, grants: Grants, change: NotificationsChange): Promise<void> {
  const { exhibitId, userId, ...toggles } = change;
  const target = userId ?? grants.userId;
  await authorizeExhibit(deps.db, grants, { exhibitId, right: target === grants.userId ? 'seeNotifications' : 'manageUsers' });
  if (!(await isExhibitUser(deps.db, { exhibitId, userId: target }))) {
    throw new AppError('NotFound', target === grants.userId ? 'You are not a user of this exhibit.' : 'That user is not a user of this exhibit.');
  }
  await saveToggles(deps.db, { exhibitId, userId: target }, pickToggles(toggles));
  deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.usersChanged', exhibitId });
}

function pickToggles(body: Partial<Toggles>): Partial<Toggles> {
  const picked: Partial<Toggles> = {};
  for (const toggle of NOTIFICATION_TOGGLES) if (body[toggle] !== undefined) picked[toggle] = body[toggle];
  return picked;
}

/**
 * A one-click unsubscribe link (public): turns its toggle off and answers what was turned off,
 * as text. A token this server did not sign answers 400.
 */
export async function unsubscribe(deps: AppDeps, token: string): Promise<string> {
  const target = readUnsubscribeToken(deps.secrets, token);
  if (!target) throw new AppError('ValidationError', 'This unsubscribe link is not valid.');
  const exhibit = await findExhibitContext(deps.db, target.exhibitId);
  const user = await findUserAccess(deps.db, target.userId);
  if (!exhibit || !user) return 'This exhibit or account no longer exists: no more mail will be sent about it.\n';
  await saveToggles(deps.db, { exhibitId: target.exhibitId, userId: target.userId }, { [target.toggle]: false });
  deps.hub.publish('exhibit', target.exhibitId, { type: 'exhibit.usersChanged', exhibitId: target.exhibitId });
  return unsubscribedText(target.toggle, exhibit);
}

function unsubscribedText(toggle: NotificationToggle, exhibit: { name: string; siteName: string; organizationName: string }): string {
  const what = toggle === 'notify' ? 'all mail notifications' : `the mails for "${NOTIFICATION_TOGGLE_LABELS[toggle]}"`;
  return (
    `Unsubscribed: you will no longer receive ${what} about the exhibit ${exhibit.name} ` +
    `(${exhibit.siteName}, ${exhibit.organizationName}).\n\nYou can turn them on again in Plinth, on the exhibit's Notifications tab.\n`
  );
}

/**
 * Queues the mails telling the exhibit's users it is being deleted (`by`: an email or an API key's label), before its rows
 * go. A failure is logged and does not stop the deletion: the mail is not worth keeping an exhibit.
 */
export async function notifyExhibitDeleted(deps: AppDeps, deletion: { exhibitId: string; by: string }): Promise<void> {
  try {
    await enqueueExhibitDeleted(deps, deletion);
  } catch (error) {
    deps.logger.error({ err: error, exhibitId: deletion.exhibitId }, 'queueing the deletion mails of an exhibit failed');
  }
}
