import { and, asc, eq } from 'drizzle-orm';
import { DEFAULT_NOTIFICATION_TOGGLES, NOTIFICATION_TOGGLES, type NotificationToggle } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { findExhibitNamedRef, type ExhibitNamedRef } from '../access/refs.repository.js';
import { exhibitPermissions, hardware, notificationSubscriptions, users } from '../../db/schema.js';

/** A user's seven toggles, as stored or (no row) the defaults. */
export type Toggles = Record<NotificationToggle, boolean>;

/** The column of each toggle. */
const COLUMNS = {
  notify: notificationSubscriptions.notify,
  notify_hardware_change: notificationSubscriptions.notifyHardwareChange,
  notify_hardware_notification: notificationSubscriptions.notifyHardwareNotification,
  notify_scene_changes: notificationSubscriptions.notifySceneChanges,
  notify_on_delete: notificationSubscriptions.notifyOnDelete,
  notify_connected: notificationSubscriptions.notifyConnected,
  notify_op_mode: notificationSubscriptions.notifyOpMode,
} as const satisfies Record<NotificationToggle, unknown>;

/** The drizzle field name of each toggle (for inserts and updates). */
const FIELDS = {
  notify: 'notify',
  notify_hardware_change: 'notifyHardwareChange',
  notify_hardware_notification: 'notifyHardwareNotification',
  notify_scene_changes: 'notifySceneChanges',
  notify_on_delete: 'notifyOnDelete',
  notify_connected: 'notifyConnected',
  notify_op_mode: 'notifyOpMode',
} as const satisfies Record<NotificationToggle, keyof typeof notificationSubscriptions.$inferInsert>;

function togglesOf(row: Partial<Record<NotificationToggle, boolean | null>>): Toggles {
  const toggles = { ...DEFAULT_NOTIFICATION_TOGGLES };
  for (const toggle of NOTIFICATION_TOGGLES) toggles[toggle] = row[toggle] ?? DEFAULT_NOTIFICATION_TOGGLES[toggle];
  return toggles;
}

/** One exhibit user (a grant on the exhibit itself) with their toggles. */
export type ExhibitSubscriber = { grantId: string; userId: string; email: string; toggles: Toggles };

/** The users of an exhibit (grants on the exhibit itself) with their toggles, by email. */
export async function listExhibitSubscribers(db: Db, exhibitId: string): Promise<ExhibitSubscriber[]> {
  const rows = await db
    .select({ grantId: exhibitPermissions.id, userId: exhibitPermissions.userId, email: users.email, ...COLUMNS })
    .from(exhibitPermissions)
    .innerJoin(users, eq(users.id, exhibitPermissions.userId))
    .leftJoin(
      notificationSubscriptions,
      and(eq(notificationSubscriptions.exhibitId, exhibitPermissions.exhibitId), eq(notificationSubscriptions.userId, exhibitPermissions.userId)),
    )
    .where(eq(exhibitPermissions.exhibitId, exhibitId))
    .orderBy(asc(users.email));
  return rows.map((r) => ({ grantId: r.grantId, userId: r.userId, email: r.email, toggles: togglesOf(r) }));
}

/** One user's toggles on an exhibit (the defaults without a row). */
export async function findToggles(db: Db, key: { exhibitId: string; userId: string }): Promise<Toggles> {
  const [row] = await db
    .select(COLUMNS)
    .from(notificationSubscriptions)
    .where(and(eq(notificationSubscriptions.exhibitId, key.exhibitId), eq(notificationSubscriptions.userId, key.userId)));
  return togglesOf(row ?? {});
}

/** Whether the user holds a grant on the exhibit itself (is one of its users). */
export async function isExhibitUser(db: Db, key: { exhibitId: string; userId: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: exhibitPermissions.id })
    .from(exhibitPermissions)
    .where(and(eq(exhibitPermissions.exhibitId, key.exhibitId), eq(exhibitPermissions.userId, key.userId)));
  return Boolean(row);
}

/** Stores changed toggles (the others keep their value, or the defaults for a new row). */
export async function saveToggles(db: Db, key: { exhibitId: string; userId: string }, changes: Partial<Toggles>): Promise<void> {
  const set: Partial<typeof notificationSubscriptions.$inferInsert> = {};
  for (const toggle of NOTIFICATION_TOGGLES) {
    const value = changes[toggle];
    if (value !== undefined) set[FIELDS[toggle]] = value;
  }
  await db
    .insert(notificationSubscriptions)
    .values({ ...key, ...set })
    .onConflictDoUpdate({ target: [notificationSubscriptions.exhibitId, notificationSubscriptions.userId], set: { ...set, updatedAt: new Date() } });
}

/** An exhibit with the names a mail gives it and its online state (the access module's one query). */
export type ExhibitContext = ExhibitNamedRef;
export const findExhibitContext = findExhibitNamedRef;

/** A board's name, the exhibit it is attached to and its online state. */
export async function findBoardContext(
  db: Db,
  hardwareId: string,
): Promise<{ id: string; name: string; exhibitId: string | null; lastOnlineChange: Date | null } | undefined> {
  const [row] = await db
    .select({ id: hardware.id, name: hardware.name, exhibitId: hardware.exhibitId, lastOnlineChange: hardware.lastOnlineChange })
    .from(hardware)
    .where(eq(hardware.id, hardwareId));
  return row;
}

/** The user as an access check needs them (undefined once deleted). */
export async function findUserAccess(db: Db, userId: string): Promise<{ id: string; email: string; isPlatformAdmin: boolean } | undefined> {
  const [row] = await db.select({ id: users.id, email: users.email, isPlatformAdmin: users.isPlatformAdmin }).from(users).where(eq(users.id, userId));
  return row;
}
