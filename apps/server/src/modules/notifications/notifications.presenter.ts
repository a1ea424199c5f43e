import type { NotificationSubscription } from '@plinth/shared';
import type { ExhibitSubscriber } from './notifications.repository.js';

/** One exhibit user's toggles as the Notifications tab shows them (the grant's id as `id`). */
export function presentSubscription(subscriber: ExhibitSubscriber, access: { canEdit: boolean }): NotificationSubscription {
  return { id: subscriber.grantId, userId: subscriber.userId, email: subscriber.email, ...subscriber.toggles, canEdit: access.canEdit };
}
