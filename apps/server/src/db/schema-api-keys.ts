import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ownedBy } from './columns.js';
import { organizations, users } from './schema-core.js';

/**
 * API keys of an organization (issue 20): automation calls the REST API with
 * `Authorization: Bearer plk_<lookup>_<secret>`. Only the SHA-256 of the whole key is kept; the
 * indexed `lookup` finds the row. A key holds `role` on its organization, or on each of `siteIds`
 * when set. Revoked keys are kept (revokedAt) so the list still says who revoked what.
 * `windowStartedAt`/`windowCount` count the key's calls in the current minute for the throttle
 * every node shares.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    organizationId: ownedBy('organization_id', () => organizations.id),
    name: text('name').notNull(),
    role: text('role', { enum: ['MANAGER', 'DEVELOPER', 'VIEWER'] }).notNull(),
    /** The sites the key is limited to; null for the whole organization. */
    siteIds: uuid('site_ids').array(),
    lookup: text('lookup').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who created it, as shown (kept when that user is deleted). */
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    /** The last call made with the key, to the minute (written at most once a minute). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
    windowCount: integer('window_count').notNull().default(0),
  },
  (t) => [index('api_keys_organization_idx').on(t.organizationId)],
);
