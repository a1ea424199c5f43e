/**
 * The core tables: people and sessions, organizations and sites, exhibits and hardware, grants and
 * device tokens. The hardware and exhibit runtime tables (schema-hardware.ts, schema-exhibits.ts)
 * reference these; schema.ts puts all of them together.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ownedBy, updatedAt } from './columns.js';

/** People who sign in to the console. An invited user has no account yet (accountCreated false). */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    passwordHash: text('password_hash'),
    /** Subject of the OpenID Connect identity, when the account signs in with Google/OIDC. */
    oidcSubject: text('oidc_subject'),
    profileImage: text('profile_image'),
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    accountCreated: boolean('account_created').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_oidc_subject_key').on(t.oidcSubject)],
);

/** Signed-in browser sessions; the cookie holds the token, the table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: ownedBy('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Failed attempts at sign-in, password reset and invitations, by key (for example
 * `login:account:<email>` or `login:ip:<address>`), shared by every server node. A key with too
 * many recent failures is blocked until `blocked_until`.
 */
export const authThrottles = pgTable('auth_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  /** When the first failure of the current window happened. */
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/**
 * One-use links: reset password (24 h), create account (7 days), and the setup link printed at
 * the first start for the first platform admin (no user yet, so no user id).
 */
export const accountLinks = pgTable(
  'account_links',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['reset_password', 'create_account', 'setup'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('account_links_token_hash_key').on(t.tokenHash)],
);

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('organizations_name_key').on(sql`lower(${t.name})`)],
);

export const sites = pgTable(
  'sites',
  {
    id: id(),
    organizationId: ownedBy('organization_id', () => organizations.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sites_organization_idx').on(t.organizationId)],
);

export const organizationSettings = pgTable(
  'organization_settings',
  {
    id: id(),
    organizationId: ownedBy('organization_id', () => organizations.id),
    idString: text('id_string').notNull(),
    display: text('display').notNull(),
    value: text('value').notNull().default(''),
    inherited: boolean('inherited').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('organization_settings_key').on(t.organizationId, t.idString)],
);

export const siteSettings = pgTable(
  'site_settings',
  {
    id: id(),
    siteId: ownedBy('site_id', () => sites.id),
    idString: text('id_string').notNull(),
    display: text('display').notNull(),
    value: text('value').notNull().default(''),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('site_settings_key').on(t.siteId, t.idString)],
);

export const exhibits = pgTable(
  'exhibits',
  {
    id: id(),
    siteId: ownedBy('site_id', () => sites.id),
    name: text('name').notNull(),
    mqttPath: text('mqtt_path').notNull().default(''),
    leaderId: uuid('leader_id').references((): AnyPgColumn => exhibits.id, { onDelete: 'set null' }),
    manifestLocked: boolean('manifest_locked').notNull().default(false),
    online: boolean('online').notNull().default(false),
    opMode: text('op_mode', { enum: ['On', 'Off'] }).notNull().default('Off'),
    lastOnlineChange: timestamp('last_online_change', { withTimezone: true }),
    /** The server node holding the exhibit's connection while it is online (server_nodes.id), so survivors can mark it offline if that node dies. */
    heldBy: uuid('held_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('exhibits_site_idx').on(t.siteId), index('exhibits_leader_idx').on(t.leaderId), index('exhibits_held_by_idx').on(t.heldBy)],
);

/**
 * The server nodes alive on this database: each inserts its row at start, beats every
 * NODE_HEARTBEAT_MS (the database's clock), and deletes it when it stops. A row not beaten for
 * NODE_LOST_AFTER_MS is a node that died: the first survivor to delete it releases what it held.
 */
export const serverNodes = pgTable('server_nodes', {
  id: uuid('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

export const hardware = pgTable(
  'hardware',
  {
    id: id(),
    siteId: ownedBy('site_id', () => sites.id),
    exhibitId: uuid('exhibit_id').references(() => exhibits.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    online: boolean('online').notNull().default(false),
    controlDebug: boolean('control_debug').notNull().default(false),
    ip: text('ip'),
    mac: text('mac'),
    plinthFw: text('plinth_fw'),
    userFw: text('user_fw'),
    voltage: doublePrecision('voltage'),
    temp: doublePrecision('temp'),
    /** Minutes. */
    uptime: doublePrecision('uptime'),
    exhibitState: text('exhibit_state'),
    exhibitIp: text('exhibit_ip'),
    /** Announced peripherals: [{ id, name, props: [...] }]. */
    peripherals: jsonb('peripherals').notNull().default([]),
    lastOnlineChange: timestamp('last_online_change', { withTimezone: true }),
    /** The connection (`epoch` of its status messages) whose status was applied last; older ones are ignored. */
    statusEpoch: bigint('status_epoch', { mode: 'number' }),
    /** MQTT messages from the board that failed validation and were dropped (its health). */
    invalidMessages: integer('invalid_messages').notNull().default(0),
    /** Why the newest dropped message was refused, and when. */
    lastInvalidReason: text('last_invalid_reason'),
    lastInvalidAt: timestamp('last_invalid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('hardware_site_idx').on(t.siteId), index('hardware_exhibit_idx').on(t.exhibitId)],
);

const roleColumn = () => text('role', { enum: ['MANAGER', 'DEVELOPER', 'VIEWER'] }).notNull();

export const organizationPermissions = pgTable(
  'organization_permissions',
  {
    id: id(),
    organizationId: ownedBy('organization_id', () => organizations.id),
    userId: ownedBy('user_id', () => users.id),
    role: roleColumn(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('organization_permissions_key').on(t.organizationId, t.userId),
    index('organization_permissions_user_idx').on(t.userId),
  ],
);

export const sitePermissions = pgTable(
  'site_permissions',
  {
    id: id(),
    siteId: ownedBy('site_id', () => sites.id),
    userId: ownedBy('user_id', () => users.id),
    role: roleColumn(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('site_permissions_key').on(t.siteId, t.userId), index('site_permissions_user_idx').on(t.userId)],
);

export const exhibitPermissions = pgTable(
  'exhibit_permissions',
  {
    id: id(),
    exhibitId: ownedBy('exhibit_id', () => exhibits.id),
    userId: ownedBy('user_id', () => users.id),
    role: roleColumn(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('exhibit_permissions_key').on(t.exhibitId, t.userId),
    index('exhibit_permissions_user_idx').on(t.userId),
  ],
);

/** Exhibit and hardware access tokens: the value is shown once, only its SHA-256 is kept. */
export const exhibitTokens = pgTable(
  'exhibit_tokens',
  {
    id: id(),
    exhibitId: ownedBy('exhibit_id', () => exhibits.id),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('exhibit_tokens_hash_key').on(t.tokenHash), index('exhibit_tokens_exhibit_idx').on(t.exhibitId)],
);

export const hardwareTokens = pgTable(
  'hardware_tokens',
  {
    id: id(),
    hardwareId: ownedBy('hardware_id', () => hardware.id),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('hardware_tokens_hash_key').on(t.tokenHash), index('hardware_tokens_hw_idx').on(t.hardwareId)],
);
