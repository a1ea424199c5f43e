import type { AuditFilters, AuditPage } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Grants } from '../access/grants.js';
import { requireOrganization } from '../organization/organization.service.js';
import { canonicalJson, entryHash, redact } from './audit-chain.js';
import type { AuditContext } from './audit-context.js';
import { AUDIT_CSV_COLUMNS, presentAuditCsvLine, presentAuditEntry } from './audit.presenter.js';
import { appendAuditEntry, listAuditRows, type AuditRowFilter, type UnsealedEntry } from './audit.repository.js';
import type { AuditChange, AuditLog } from './ports.js';
import { csvLine } from '../logging/logging.presenter.js';

/** Entries read per query while a CSV streams: memory stays flat whatever the log holds. */
export const AUDIT_CSV_CHUNK_ROWS = 2000;

/** JSON text of a before or after state, secrets redacted; null when there is none. */
function stateJson(state: unknown): string | null {
  return state === undefined || state === null ? null : canonicalJson(redact(state));
}

/** The audit log on the database: each entry appended to its organization's chain (audit.repository.ts). */
export function createAuditLog(deps: { db: Db; clock: Clock }): AuditLog {
  return {
    async record(context: AuditContext, change: AuditChange) {
      const entry: UnsealedEntry = {
        organizationId: change.organizationId,
        at: deps.clock.now(),
        actorKind: context.actor.kind,
        actorId: context.actor.id,
        actorLabel: context.actor.label,
        address: context.address,
        siteId: change.siteId ?? null,
        exhibitId: change.exhibitId ?? null,
        hardwareId: change.hardwareId ?? null,
        resource: change.resource,
        resourceId: change.resourceId,
        action: change.action,
        beforeJson: stateJson(change.before),
        afterJson: stateJson(change.after),
      };
      await appendAuditEntry(deps.db, entry, (head) => {
        const sequence = head.sequence + 1;
        return { sequence, prevHash: head.hash, hash: entryHash(head.hash, { ...entry, sequence }) };
      });
    },
  };
}

/** Which organization's log, and how to filter it. */
export type AuditQuery = { organizationId: string; filters: AuditFilters };

/** A page of an organization's audit log, newest first; org managers and platform admins only (others 403, or 404 when they do not see it). */
export async function listAuditEntries(deps: AppDeps, grants: Grants, query: AuditQuery & { cursor?: string; pageSize: number }): Promise<AuditPage> {
  await requireOrganization(deps, grants, { id: query.organizationId, right: 'administer' });
  const filter: AuditRowFilter = { ...query.filters, organizationId: query.organizationId };
  const rows = await listAuditRows(deps.db, filter, { before: query.cursor === undefined ? undefined : Number(query.cursor), limit: query.pageSize + 1 });
  const page = rows.slice(0, query.pageSize);
  const hasMore = rows.length > query.pageSize;
  return { entries: page.map(presentAuditEntry), nextCursor: hasMore ? String(page[page.length - 1]!.sequence) : null };
}

/** The matching entries as CSV text to stream, newest first, after the same access check as the list. */
export async function exportAuditCsv(deps: AppDeps, grants: Grants, query: AuditQuery): Promise<AsyncGenerator<string>> {
  await requireOrganization(deps, grants, { id: query.organizationId, right: 'administer' });
  return csvChunks(deps.db, { ...query.filters, organizationId: query.organizationId });
}

async function* csvChunks(db: Db, filter: AuditRowFilter): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_COLUMNS);
  let before: number | undefined;
  for (;;) {
    const rows = await listAuditRows(db, filter, { before, limit: AUDIT_CSV_CHUNK_ROWS });
    if (rows.length) yield rows.map(presentAuditCsvLine).join('');
    if (rows.length < AUDIT_CSV_CHUNK_ROWS) return;
    before = rows[rows.length - 1]!.sequence;
  }
}

