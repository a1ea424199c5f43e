import { and, asc, desc, eq, gt, gte, ilike, lt, lte, type SQL } from 'drizzle-orm';
import type { AuditFilters } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { auditChains, auditEntries } from '../../db/schema.js';
import { GENESIS_HASH, type ChainedFields } from './audit-chain.js';

export type AuditEntryRow = typeof auditEntries.$inferSelect;
export type AuditChainRow = typeof auditChains.$inferSelect;

/** An entry before it takes its place in the chain. */
export type UnsealedEntry = Omit<ChainedFields, 'sequence'>;
/** The chain head an entry follows, and what sealing it answers. */
export type ChainHead = { sequence: number; hash: string };
export type Sealed = { sequence: number; prevHash: string; hash: string };

/**
 * Appends an entry to its organization's chain in one transaction: the chain head is made if
 * missing, then locked (FOR UPDATE), so appends from every node and every request are serialized
 * per organization; `seal` computes the entry's place and hash from the head.
 */
export async function appendAuditEntry(db: Db, entry: UnsealedEntry, seal: (head: ChainHead) => Sealed): Promise<void> {
  await db.transaction(async (tx) => {
    const organizationId = entry.organizationId;
    await tx.insert(auditChains).values({ organizationId, lastHash: GENESIS_HASH, anchorHash: GENESIS_HASH }).onConflictDoNothing();
    const [head] = await tx.select().from(auditChains).where(eq(auditChains.organizationId, organizationId)).for('update');
    const sealed = seal({ sequence: head!.lastSequence, hash: head!.lastHash });
    await tx.insert(auditEntries).values({ ...entry, ...sealed });
    await tx.update(auditChains).set({ lastSequence: sealed.sequence, lastHash: sealed.hash }).where(eq(auditChains.organizationId, organizationId));
  });
}

/** An organization's entries matching the filters. */
export type AuditRowFilter = AuditFilters & { organizationId: string };

function whereFilter(filter: AuditRowFilter): SQL | undefined {
  const pattern = filter.actor ? `%${filter.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(auditEntries.organizationId, filter.organizationId),
    filter.siteId ? eq(auditEntries.siteId, filter.siteId) : undefined,
    filter.exhibitId ? eq(auditEntries.exhibitId, filter.exhibitId) : undefined,
    filter.hardwareId ? eq(auditEntries.hardwareId, filter.hardwareId) : undefined,
    pattern ? ilike(auditEntries.actorLabel, pattern) : undefined,
    filter.action ? eq(auditEntries.action, filter.action) : undefined,
    filter.from !== undefined ? gte(auditEntries.at, new Date(filter.from)) : undefined,
    filter.to !== undefined ? lt(auditEntries.at, new Date(filter.to)) : undefined,
  );
}

/** Up to `limit` matching entries, newest first, older than the `before` sequence when given (keyset paging). */
export async function listAuditRows(db: Db, filter: AuditRowFilter, page: { before?: number; limit: number }): Promise<AuditEntryRow[]> {
  return db
    .select()
    .from(auditEntries)
    .where(and(whereFilter(filter), page.before !== undefined ? lt(auditEntries.sequence, page.before) : undefined))
    .orderBy(desc(auditEntries.sequence))
    .limit(page.limit);
}

/** Every chain head (one per organization that has entries). */
export async function listAuditChains(db: Db): Promise<AuditChainRow[]> {
  return db.select().from(auditChains).orderBy(asc(auditChains.organizationId));
}

/** Up to `limit` entries of one chain after `after` (a sequence), oldest first: the verifier's walk. */
export async function listChainEntries(db: Db, chain: { organizationId: string; after: number; limit: number }): Promise<AuditEntryRow[]> {
  return db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.organizationId, chain.organizationId), gt(auditEntries.sequence, chain.after)))
    .orderBy(asc(auditEntries.sequence))
    .limit(chain.limit);
}

/**
 * Drops the prefix of one chain recorded before `cutoff`, in bulk (the retention; never through
 * the API), and moves the chain's anchor to the last entry dropped so the rest still verifies.
 * Answers how many entries went.
 */
export async function dropAuditPrefix(db: Db, prefix: { organizationId: string; cutoff: Date }): Promise<number> {
  return db.transaction(async (tx) => {
    const { organizationId } = prefix;
    const [head] = await tx.select().from(auditChains).where(eq(auditChains.organizationId, organizationId)).for('update');
    if (!head) return 0;
    const [last] = await tx
      .select({ sequence: auditEntries.sequence, hash: auditEntries.hash })
      .from(auditEntries)
      .where(and(eq(auditEntries.organizationId, organizationId), lt(auditEntries.at, prefix.cutoff)))
      .orderBy(desc(auditEntries.sequence))
      .limit(1);
    if (!last) return 0;
    const dropped = await tx
      .delete(auditEntries)
      .where(and(eq(auditEntries.organizationId, organizationId), lte(auditEntries.sequence, last.sequence)))
      .returning({ id: auditEntries.id });
    await tx.update(auditChains).set({ anchorSequence: last.sequence, anchorHash: last.hash }).where(eq(auditChains.organizationId, organizationId));
    return dropped.length;
  });
}

