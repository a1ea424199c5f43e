import type { AccessChangeReason, AccessNotice } from './hub-messages.js';
import type { HubSubscription, RealtimeHub } from './hub.js';

/**
 * Announces on every node (through the hub) that `userId`'s access changed. Call it after the
 * change is committed: the sockets that receive it read the new state from the database.
 */
export function announceAccessChange(hub: RealtimeHub, userId: string, reason: AccessChangeReason): void {
  hub.publish('access-user', userId, { type: 'access.changed', userId, reason });
}

/** Listens for access changes of one user (see `announceAccessChange`). */
export function listenToAccessChanges(hub: RealtimeHub, userId: string, listener: (notice: AccessNotice) => void): HubSubscription {
  return hub.subscribe('access-user', userId, listener);
}
