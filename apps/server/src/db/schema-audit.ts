import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id } from './columns.js';

/**
 * The audit log (issue 20, docs/audit-log.md): one hash chain per organization. No foreign key:
 * entries outlive what they name (a deleted exhibit, a deleted organization) until the
 * organization's retention drops them.
 */

/** One change made by a person or an API key. Never updated; deleted only by the retention job, oldest first. */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    /** Place in the organization's chain: 1, 2, … without gaps (the retention drops a prefix). */
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actorKind: text('actor_kind', { enum: ['user', 'apiKey'] }).notNull(),
    actorId: text('actor_id').notNull(),
    actorLabel: text('actor_label').notNull(),
    address: text('address'),
    siteId: uuid('site_id'),
    exhibitId: uuid('exhibit_id'),
    hardwareId: uuid('hardware_id'),
    resource: text('resource').notNull(),
    resourceId: text('resource_id').notNull(),
    action: text('action').notNull(),
    /** JSON text as hashed (secrets redacted); null when there is no such state. */
    beforeJson: text('before_json'),
    afterJson: text('after_json'),
    /** The previous entry's hash (the chain's anchor for the first one kept). */
    prevHash: text('prev_hash').notNull(),
    /** sha256 hex of prevHash and the canonical JSON of this entry's fields (audit-chain.ts). */
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_entries_chain_idx').on(t.organizationId, t.sequence),
    index('audit_entries_exhibit_idx').on(t.organizationId, t.exhibitId, t.sequence),
    index('audit_entries_hardware_idx').on(t.organizationId, t.hardwareId, t.sequence),
    index('audit_entries_site_idx').on(t.organizationId, t.siteId, t.sequence),
    index('audit_entries_at_idx').on(t.organizationId, t.at),
  ],
);

/**
 * Each organization's chain head, locked (FOR UPDATE) by every append so that appends from every
 * node are serialized per organization. `anchorSequence`/`anchorHash` name the last entry the
 * retention dropped: the first entry kept must follow it.
 */
export const auditChains = pgTable('audit_chains', {
  organizationId: uuid('organization_id').primaryKey(),
  lastSequence: bigint('last_sequence', { mode: 'number' }).notNull().default(0),
  lastHash: text('last_hash').notNull(),
  anchorSequence: bigint('anchor_sequence', { mode: 'number' }).notNull().default(0),
  anchorHash: text('anchor_hash').notNull(),
});
