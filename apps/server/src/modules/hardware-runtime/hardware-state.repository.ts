import { and, desc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import { runAgainOnConflict } from '../../db/errors.js';
import { splitOnePerBoard } from '../../lib/one-per-board.js';
import type { AnnounceMessage, Peripheral } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { firmwareHistory, hardware, hardwareConnectionHistory } from '../../db/schema.js';

/** Why a board's online state changed, kept in hardware_connection_history. */
export type ConnectionReason = 'connect' | 'message' | 'will' | 'timeout' | 'disconnect' | 'revoked' | 'restart';

/** A change of a board's online state to store. */
export type OnlineChange = { hardwareId: string; online: boolean; reason: ConnectionReason; at: Date; epoch?: number };

/**
 * Sets each board's online flag when it changes, stamps lastOnlineChange and keeps the change in
 * the history, in one transaction (no reader sees a change without its history row). Answers, per
 * change, whether the state changed (so each change is announced once, even with several server
 * instances). `epoch`, from a status message, orders connections: a status of an older connection
 * than the newest seen is ignored. A venue's boards dropping (or coming back) at once cost a few
 * statements, not three each; a board named twice is changed in its order, in separate statements.
 */
export async function setOnlineMany(db: Db, changes: OnlineChange[]): Promise<boolean[]> {
  return runAgainOnConflict(() => setOnlineManyOnce(db, changes));
}

async function setOnlineManyOnce(db: Db, changes: OnlineChange[]): Promise<boolean[]> {
  const changed = new Set<OnlineChange>();
  await db.transaction(async (tx) => {
    // The boards' rows are locked in one order (by id), so that two servers' batches over the
    // same boards wait for each other instead of deadlocking.
    const ids = [...new Set(changes.map((c) => c.hardwareId))];
    await tx.select({ id: hardware.id }).from(hardware).where(inArray(hardware.id, ids)).orderBy(hardware.id).for('update');
    for (let rest = changes; rest.length; ) {
      const { now, later } = splitOnePerBoard(rest);
      for (const change of await setOnlineOnce(tx, now)) changed.add(change);
      rest = later;
    }
  });
  return changes.map((change) => changed.has(change));
}

/** Changes of distinct boards; answers those that changed the state. */
async function setOnlineOnce(tx: Db, changes: OnlineChange[]): Promise<OnlineChange[]> {
  const values = sql.join(
    changes.map((c, i) => sql`(${i}::int, ${c.hardwareId}::uuid, ${c.online}::boolean, ${c.at.toISOString()}::timestamptz, ${c.epoch ?? null}::bigint)`),
    sql`, `,
  );
  // A status naming its connection (epoch) applies only if no newer connection's status came
  // first; a connection's online status records it even when the board already reads online.
  if (changes.some((c) => c.online && c.epoch !== undefined)) {
    await tx.execute(sql`
      update hardware as h set status_epoch = v.epoch
      from (values ${values}) as v(i, id, online, at, epoch)
      where h.id = v.id and v.online and v.epoch is not null and (h.status_epoch is null or h.status_epoch < v.epoch)`);
  }
  const result = await tx.execute(sql`
    update hardware as h set online = v.online, last_online_change = v.at, updated_at = v.at
    from (values ${values}) as v(i, id, online, at, epoch)
    where h.id = v.id and h.online = not v.online
      and (v.epoch is null or h.status_epoch is null or h.status_epoch <= v.epoch)
    returning v.i`);
  const done = (result as unknown as { rows: { i: number }[] }).rows.map((row) => changes[row.i]!);
  if (done.length) {
    await tx.insert(hardwareConnectionHistory).values(done.map(({ hardwareId, online, reason, at }) => ({ hardwareId, online, reason, at })));
  }
  return done;
}

/** Boards that were online when the server stopped are offline until they speak again. */
export async function setAllOffline(db: Db, at: Date): Promise<string[]> {
  // In one transaction, like every online change: no reader sees a board offline without its history row.
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(hardware)
      .set({ online: false, lastOnlineChange: at })
      .where(eq(hardware.online, true))
      .returning({ id: hardware.id });
    if (rows.length) {
      await tx.insert(hardwareConnectionHistory).values(rows.map((r) => ({ hardwareId: r.id, online: false, reason: 'restart', at })));
    }
    return rows.map((r) => r.id);
  });
}

/**
 * Boards online, or offline since `since`: those that may have been connected to the broker around
 * an outage of the server's link to it.
 */
export async function listOnlineOrOfflineSince(db: Db, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: hardware.id })
    .from(hardware)
    .where(or(eq(hardware.online, true), gte(hardware.lastOnlineChange, since)));
  return rows.map((r) => r.id);
}

export async function listOnlineIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: hardware.id }).from(hardware).where(eq(hardware.online, true));
  return rows.map((r) => r.id);
}

export type HardwareRuntimeRow = {
  id: string;
  online: boolean;
  controlDebug: boolean;
  plinthFw: string | null;
  userFw: string | null;
  peripherals: Peripheral[];
};

export async function getRuntimeRow(db: Db, hardwareId: string): Promise<HardwareRuntimeRow | undefined> {
  const [row] = await db
    .select({
      id: hardware.id,
      online: hardware.online,
      controlDebug: hardware.controlDebug,
      plinthFw: hardware.plinthFw,
      userFw: hardware.userFw,
      peripherals: hardware.peripherals,
    })
    .from(hardware)
    .where(eq(hardware.id, hardwareId));
  return row ? { ...row, peripherals: row.peripherals as Peripheral[] } : undefined;
}

/** Stores the debug switch the console chose (the row's write time moves, see readLastWrite). */
export async function setControlDebug(db: Db, hardwareId: string, change: { controlDebug: boolean; at: Date }): Promise<void> {
  await db.update(hardware).set({ controlDebug: change.controlDebug, updatedAt: change.at }).where(eq(hardware.id, hardwareId));
}

/** The announced versions, addresses and peripherals replace what was known. */
export async function applyAnnounce(db: Db, hardwareId: string, received: { announce: AnnounceMessage; at: Date }): Promise<HardwareRuntimeRow | undefined> {
  const { announce, at } = received;
  const peripherals: Peripheral[] = announce.peripherals.map((p) => ({
    id: p.id,
    name: p.name,
    props: p.props.map((prop) => ({ ...prop })),
  }));
  const [row] = await db
    .update(hardware)
    .set({
      plinthFw: announce.plinth_fw,
      userFw: announce.user_fw,
      ip: announce.ip,
      mac: announce.mac,
      peripherals,
      updatedAt: at,
    })
    .where(eq(hardware.id, hardwareId))
    .returning({
      id: hardware.id,
      online: hardware.online,
      controlDebug: hardware.controlDebug,
      plinthFw: hardware.plinthFw,
      userFw: hardware.userFw,
    });
  return row ? { ...row, peripherals } : undefined;
}

/** Records the board's report on a firmware update it was sent. */
export async function finishFirmwareUpdate(
  db: Db,
  hardwareId: string,
  report: { correlationId: string; status: 'applied' | 'failed'; error: string | null; at: Date },
): Promise<{ version: string; isPlinthFirmware: boolean } | undefined> {
  const { correlationId, status, error, at } = report;
  const [row] = await db
    .update(firmwareHistory)
    .set({ status, error, finishedAt: at })
    .where(
      and(
        eq(firmwareHistory.hardwareId, hardwareId),
        eq(firmwareHistory.correlationId, correlationId),
        eq(firmwareHistory.status, 'pending'),
      ),
    )
    .returning({ version: firmwareHistory.version, isPlinthFirmware: firmwareHistory.isPlinthFirmware });
  return row;
}

/** The latest online/offline changes of a board, newest first. */
export async function listConnectionHistory(db: Db, hardwareId: string, limit = 50) {
  return db
    .select()
    .from(hardwareConnectionHistory)
    .where(eq(hardwareConnectionHistory.hardwareId, hardwareId))
    .orderBy(desc(hardwareConnectionHistory.at))
    .limit(limit);
}

/** How many boards of the whole deployment are offline (for the metrics). */
export async function countOfflineBoards(db: Db): Promise<number> {
  return db.$count(hardware, eq(hardware.online, false));
}
