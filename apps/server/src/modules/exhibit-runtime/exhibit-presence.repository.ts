import { and, eq, type SQL } from 'drizzle-orm';
import type { OpMode } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitConnections, exhibits } from '../../db/schema.js';
import type { OfflineReason } from '../../devices/ports.js';

/**
 * What the exhibit gateway stores about connections: the online flag with its
 * `lastOnlineChange` stamp, and the history of changes (`exhibit_connections`).
 */

/**
 * Exhibits left online when no connection can exist (one node, starting) go offline, each with a
 * history row (reason 'restart'); answers how many.
 */
export async function resetStaleOnline(db: Db, at: Date): Promise<number> {
  return (await takeOffline(db, eq(exhibits.online, true), { reason: 'restart', at })).length;
}

/**
 * The exhibits `where` selects go offline with a history row each, in one transaction: no reader
 * sees an exhibit offline before its history row. One update, so two callers cannot both take one.
 */
async function takeOffline(db: Db, where: SQL | undefined, { reason, at }: { reason: OfflineReason; at: Date }): Promise<string[]> {
  return db.transaction(async (tx) => {
    const gone = await tx.update(exhibits).set({ online: false, lastOnlineChange: at, heldBy: null }).where(where).returning({ id: exhibits.id });
    if (gone.length) {
      await tx.insert(exhibitConnections).values(gone.map((e) => ({ exhibitId: e.id, online: false, reason, at })));
    }
    return gone.map((e) => e.id);
  });
}

/**
 * An online change made by node `nodeId` (which holds the connection while the exhibit is online):
 * `unlessChangedSince` applies it only if `lastOnlineChange` still holds that stamp.
 */
export type OnlineChange = { online: boolean; at: Date; nodeId: string; unlessChangedSince?: Date };

/**
 * Sets the online flag and stamps it. Answers the stored op mode, or nothing when the exhibit is
 * gone or (with `unlessChangedSince`) another node changed it since.
 */
export async function updateExhibitOnline(db: Db, exhibitId: string, change: OnlineChange): Promise<{ opMode: OpMode } | undefined> {
  const stamp = change.unlessChangedSince;
  const [row] = await db
    .update(exhibits)
    .set({ online: change.online, lastOnlineChange: change.at, heldBy: change.online ? change.nodeId : null })
    .where(stamp ? and(eq(exhibits.id, exhibitId), eq(exhibits.lastOnlineChange, stamp)) : eq(exhibits.id, exhibitId))
    .returning({ opMode: exhibits.opMode });
  return row;
}

/**
 * The exhibits a dead node held and no node has marked online since: offline, with a history row
 * ('node_lost'), in one transaction: no reader sees the exhibit offline before its history row.
 * Answers their ids (one update: two survivors cannot both release one).
 */
export async function releaseExhibitsHeldBy(db: Db, nodeId: string, at: Date): Promise<string[]> {
  return takeOffline(db, and(eq(exhibits.heldBy, nodeId), eq(exhibits.online, true)), { reason: 'node_lost', at });
}

/** One row of an exhibit's online history. */
export type ConnectionHistoryWrite = {
  exhibitId: string;
  online: boolean;
  /** The token the connection authenticated with (online rows only). */
  tokenId: string | null;
  remoteAddress: string;
  /** Why it went offline (offline rows only). */
  reason: OfflineReason | null;
  at: Date;
};

export async function insertConnectionHistory(db: Db, row: ConnectionHistoryWrite): Promise<void> {
  await db.insert(exhibitConnections).values(row);
}

/** The online history of an exhibit, oldest first (for tests and later screens). */
export async function listConnectionHistory(db: Db, exhibitId: string, limit = 50) {
  return db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, exhibitId)).orderBy(exhibitConnections.at).limit(limit);
}

/** The exhibit's name (told to the SDK on authentication), or '' when it is gone. */
export async function findExhibitName(db: Db, exhibitId: string): Promise<string> {
  const [row] = await db.select({ name: exhibits.name }).from(exhibits).where(eq(exhibits.id, exhibitId));
  return row?.name ?? '';
}

/** How many exhibits of the whole deployment are offline (for the metrics). */
export async function countOfflineExhibits(db: Db): Promise<number> {
  return db.$count(exhibits, eq(exhibits.online, false));
}
