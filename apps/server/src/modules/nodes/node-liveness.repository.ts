import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { serverNodes } from '../../db/schema.js';

/** The nodes alive on this database, by their heartbeats (the database's clock, never a node's). */

export async function registerNode(db: Db, nodeId: string): Promise<void> {
  await db.insert(serverNodes).values({ id: nodeId }).onConflictDoUpdate({ target: serverNodes.id, set: { heartbeatAt: sql`now()` } });
}

/** Beats; false when the row was gone (a survivor took this node for dead and released what it held). */
export async function beat(db: Db, nodeId: string): Promise<boolean> {
  const rows = await db.update(serverNodes).set({ heartbeatAt: sql`now()` }).where(eq(serverNodes.id, nodeId)).returning({ id: serverNodes.id });
  return rows.length > 0;
}

/**
 * The nodes silent for longer than `lostAfterMs`, deleted in the same statement: each dead node is
 * claimed by exactly one survivor, which then releases what it held.
 */
export async function claimLostNodes(db: Db, lostAfterMs: number): Promise<string[]> {
  const rows = await db
    .delete(serverNodes)
    .where(sql`${serverNodes.heartbeatAt} < now() - make_interval(secs => ${lostAfterMs / 1000})`)
    .returning({ id: serverNodes.id });
  return rows.map((r) => r.id);
}

export async function unregisterNode(db: Db, nodeId: string): Promise<void> {
  await db.delete(serverNodes).where(eq(serverNodes.id, nodeId));
}
