import { NOTIFICATION_TOGGLES, type NotificationToggle } from '@plinth/shared';
import type { SecretBox } from '../../lib/secret-box.js';

/** What an unsubscribe link turns off: one toggle of one user on one exhibit. */
export type UnsubscribeTarget = { userId: string; exhibitId: string; toggle: NotificationToggle };

const CONTEXT = 'notification-unsubscribe';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The token of a one-click unsubscribe link: `userId.exhibitId.toggle.signature`, signed with the
 * server's secret key. It does not expire: it can only ever turn that one toggle off, which is
 * what its reader asks for, and it stays valid in an old mail.
 */
export function createUnsubscribeToken(secrets: SecretBox, target: UnsubscribeTarget): string {
  const data = `${target.userId}.${target.exhibitId}.${target.toggle}`;
  return `${data}.${secrets.sign(data, CONTEXT)}`;
}

/** The target of a token this server signed; null for anything else. */
export function readUnsubscribeToken(secrets: SecretBox, token: string): UnsubscribeTarget | null {
  const [userId = '', exhibitId = '', toggle = '', signature = '', ...rest] = token.split('.');
  if (rest.length || !UUID.test(userId) || !UUID.test(exhibitId) || !(NOTIFICATION_TOGGLES as readonly string[]).includes(toggle)) return null;
  if (!secrets.verify(`${userId}.${exhibitId}.${toggle}`, CONTEXT, signature)) return null;
  return { userId, exhibitId, toggle: toggle as NotificationToggle };
}

/** The one-click link of a mail (the page that turns the toggle off, GET or POST). */
export function unsubscribeLink(deps: { secrets: SecretBox; publicUrl: string }, target: UnsubscribeTarget): string {
  return `${deps.publicUrl}/api/v1/exhibit-management/notifications/unsubscribe?token=${encodeURIComponent(createUnsubscribeToken(deps.secrets, target))}`;
}
