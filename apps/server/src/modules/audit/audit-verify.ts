import type { Db } from '../../db/client.js';
import { entryHash } from './audit-chain.js';
import { listAuditChains, listChainEntries, type AuditChainRow, type AuditEntryRow } from './audit.repository.js';

/** Entries read per query while a chain is walked. */
const VERIFY_CHUNK_ROWS = 5000;

/** What the verifier found in one organization's chain. */
export type ChainReport = {
  organizationId: string;
  /** Entries checked (those the retention kept). */
  entries: number;
  /** The sequence of the last entry, and its hash (note it elsewhere to detect a rewrite of the whole chain). */
  lastSequence: number;
  lastHash: string;
  /** The first problem found, or null when the chain holds. */
  problem: null | { sequence: number; id: string | null; reason: string };
};

/**
 * Walks every organization's chain from its anchor, oldest first: each entry must follow the
 * previous one (sequence + 1, prevHash = its hash), its hash must match its fields, and the
 * last one must be the chain head (entries removed from the end are found too).
 */
export async function verifyAuditChains(db: Db): Promise<ChainReport[]> {
  const reports: ChainReport[] = [];
  for (const chain of await listAuditChains(db)) reports.push(await verifyChain(db, chain));
  return reports;
}

async function verifyChain(db: Db, chain: AuditChainRow): Promise<ChainReport> {
  const report = (entries: number, problem: ChainReport['problem']): ChainReport => ({
    organizationId: chain.organizationId,
    entries,
    lastSequence: chain.lastSequence,
    lastHash: chain.lastHash,
    problem,
  });
  let previous = { sequence: chain.anchorSequence, hash: chain.anchorHash };
  let count = 0;
  for (;;) {
    const rows = await listChainEntries(db, { organizationId: chain.organizationId, after: previous.sequence, limit: VERIFY_CHUNK_ROWS });
    for (const row of rows) {
      const reason = problemOf(row, previous);
      if (reason) return report(count, { sequence: row.sequence, id: row.id, reason });
      previous = { sequence: row.sequence, hash: row.hash };
      count += 1;
    }
    if (rows.length < VERIFY_CHUNK_ROWS) break;
  }
  if (previous.sequence !== chain.lastSequence || previous.hash !== chain.lastHash) {
    const reason = `the chain ends at entry ${previous.sequence}, but its head names entry ${chain.lastSequence}: entries were removed or the head was changed`;
    return report(count, { sequence: previous.sequence + 1, id: null, reason });
  }
  return report(count, null);
}

function problemOf(row: AuditEntryRow, previous: { sequence: number; hash: string }): string | null {
  if (row.sequence !== previous.sequence + 1) return `entry ${previous.sequence + 1} is missing (the next one is ${row.sequence})`;
  if (row.prevHash !== previous.hash) return "its previous hash does not match the previous entry's hash";
  const { id: _id, prevHash: _prev, hash, ...fields } = row;
  if (entryHash(row.prevHash, fields) !== hash) return 'its hash does not match its content: the entry was changed';
  return null;
}
