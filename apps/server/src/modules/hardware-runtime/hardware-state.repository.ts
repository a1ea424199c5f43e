import { and, desc, eq, gte, isNull, lt, lte, or } from 'drizzle-orm';
import type { AnnounceMessage, Peripheral } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { firmwareHistory, hardware, hardwareConnectionHistory } from '../../db/schema.js';

/** Why a board's online state changed, kept in hardware_connection_history. */
export type ConnectionReason = 'connect' | 'message' | 'will' | 'timeout' | 'disconnect' | 'revoked' | 'restart';

/**
 * Sets the online flag when it changes, stamps lastOnlineChange and keeps the change in the
 * history. Answers true when the state changed (so the change is announced once, even with
 * several server instances). `epoch`, from a status message, orders connections: a status of an
 * older connection than the newest seen is ignored.
 */
export async function setOnline(db: Db, hardwareId: string, change: { online: boolean; reason: ConnectionReason; at: Date; epoch?: number }): Promise<boolean> {
  const { online, reason, at, epoch } = change;
  return db.transaction(async (tx) => {
    // A status naming its connection (epoch) applies only if no newer connection's status came
    // first; a connection's online status records it even when the board already reads online.
    if (epoch !== undefined && online) {
      await tx
        .update(hardware)
        .set({ statusEpoch: epoch })
        .where(and(eq(hardware.id, hardwareId), or(isNull(hardware.statusEpoch), lt(hardware.statusEpoch, epoch))));
    }
    const inOrder = epoch === undefined ? undefined : or(isNull(hardware.statusEpoch), lte(hardware.statusEpoch, epoch));
    const changed = await tx
      .update(hardware)
      .set({ online, lastOnlineChange: at, updatedAt: at })
      .where(and(eq(hardware.id, hardwareId), eq(hardware.online, !online), inOrder))
      .returning({ id: hardware.id });
    if (!changed.length) return false;
    await tx.insert(hardwareConnectionHistory).values({ hardwareId, online, reason, at });
    return true;
  });
}

/** Boards that were online when the server stopped are offline until they speak again. */
export async function setAllOffline(db: Db, at: Date): Promise<string[]> {
  const rows = await db
    .update(hardware)
    .set({ online: false, lastOnlineChange: at })
    .where(eq(hardware.online, true))
    .returning({ id: hardware.id });
  if (rows.length) {
    await db.insert(hardwareConnectionHistory).values(rows.map((r) => ({ hardwareId: r.id, online: false, reason: 'restart', at })));
  }
  return rows.map((r) => r.id);
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
