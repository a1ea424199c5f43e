import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ownedBy, updatedAt } from './columns.js';
import { exhibits, users } from './schema-core.js';

/**
 * People on an exhibit: per-user levels on its manifest items (granular permissions), mail
 * notification toggles, and the durable outbox notification mails go through.
 */

/**
 * A user's level on one manifest item of an exhibit (spec 6: read_write / read / hidden). No row:
 * what the role allows. Kept by manifest id, so a new manifest keeps the levels of the items it keeps.
 */
export const exhibitItemPermissions = pgTable(
  'exhibit_item_permissions',
  {
    id: id(),
    exhibitId: ownedBy('exhibit_id', () => exhibits.id),
    userId: ownedBy('user_id', () => users.id),
    kind: text('kind', { enum: ['status', 'setting', 'settingList', 'control'] }).notNull(),
    manifestId: text('manifest_id').notNull(),
    level: text('level', { enum: ['hidden', 'read', 'read_write'] }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('exhibit_item_permissions_key').on(t.exhibitId, t.userId, t.kind, t.manifestId)],
);

/** A user's notification toggles on an exhibit (spec 3 Notification subscription). No row: the defaults. */
export const notificationSubscriptions = pgTable(
  'notification_subscriptions',
  {
    id: id(),
    exhibitId: ownedBy('exhibit_id', () => exhibits.id),
    userId: ownedBy('user_id', () => users.id),
    notify: boolean('notify').notNull().default(true),
    notifyHardwareChange: boolean('notify_hardware_change').notNull().default(false),
    notifyHardwareNotification: boolean('notify_hardware_notification').notNull().default(false),
    notifySceneChanges: boolean('notify_scene_changes').notNull().default(false),
    notifyOnDelete: boolean('notify_on_delete').notNull().default(true),
    notifyConnected: boolean('notify_connected').notNull().default(false),
    notifyOpMode: boolean('notify_op_mode').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('notification_subscriptions_key').on(t.exhibitId, t.userId)],
);

/**
 * Mail to send, written in the same step as what causes it and sent by whichever node claims it
 * (FOR UPDATE SKIP LOCKED with a lease), retried with backoff while SMTP is down. A row holds its
 * whole message, so a mail about a deleted exhibit still goes. `dedupeKey` (unique) keeps a cause
 * from queueing the same mail twice; `notBefore` delays it (an offline exhibit's grace period),
 * and `condition` is checked again just before sending (still offline? still has access?).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    /** What caused it: 'notification.connected', 'notification.opMode', ... */
    kind: text('kind').notNull(),
    toEmail: text('to_email').notNull(),
    userId: uuid('user_id'),
    exhibitId: uuid('exhibit_id'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    dedupeKey: text('dedupe_key'),
    /** JSON the sender checks before sending (shape owned by modules/notifications). */
    condition: text('condition'),
    state: text('state', { enum: ['pending', 'sending', 'sent', 'dropped'] })
      .notNull()
      .default('pending'),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe').on(t.dedupeKey),
    index('mail_outbox_due').on(t.notBefore).where(sql`state in ('pending', 'sending')`),
  ],
);
