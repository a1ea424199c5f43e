import type { RealtimeHub } from './hub.js';
import { nodeChannel } from './channel.js';

/**
 * Why a user's access changed: a grant was removed or its role changed, a session ended
 * (logout, password change, an admin signing the user out), or the platform-admin flag changed.
 */
export type AccessChangeReason = 'grant' | 'session' | 'platform-admin';

/** Tells every node that a user's access changed, so their open sockets check it again. */
export type AccessNotice = { type: 'access.changed'; userId: string; reason: AccessChangeReason };

const PREFIX = 'access-user';

/**
 * Announces on every node (through the hub) that `userId`'s access changed. Call it after the
 * change is committed: the sockets that receive it read the new state from the database.
 */
export function announceAccessChange(hub: RealtimeHub, userId: string, reason: AccessChangeReason): void {
  nodeChannel<AccessNotice>(hub, PREFIX).publish(userId, { type: 'access.changed', userId, reason });
}

/** Listens for access changes of one user (see `announceAccessChange`). */
export function listenToAccessChanges(hub: RealtimeHub, userId: string, listener: (notice: AccessNotice) => void) {
  return nodeChannel<AccessNotice>(hub, PREFIX).subscribe(userId, listener);
}
