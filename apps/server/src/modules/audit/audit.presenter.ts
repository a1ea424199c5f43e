import type { AuditAction, AuditEntry } from '@plinth/shared';
import { csvLine } from '../logging/logging.presenter.js';
import type { AuditEntryRow } from './audit.repository.js';

/** A stored entry as the list answers it (before and after parsed back into JSON values). */
export function presentAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    sequence: row.sequence,
    at: row.at.toISOString(),
    actor: { kind: row.actorKind, id: row.actorId, label: row.actorLabel },
    address: row.address,
    organizationId: row.organizationId,
    siteId: row.siteId,
    exhibitId: row.exhibitId,
    hardwareId: row.hardwareId,
    resource: row.resource,
    resourceId: row.resourceId,
    action: row.action as AuditAction,
    before: row.beforeJson === null ? null : (JSON.parse(row.beforeJson) as unknown),
    after: row.afterJson === null ? null : (JSON.parse(row.afterJson) as unknown),
  };
}

/** The CSV's columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  'sequence',
  'at',
  'actor_kind',
  'actor_id',
  'actor',
  'address',
  'site_id',
  'exhibit_id',
  'hardware_id',
  'resource',
  'resource_id',
  'action',
  'before',
  'after',
  'hash',
] as const;

/** One entry as a CSV record (cells made safe by `csvLine`: RFC 4180, formula-like cells prefixed with an apostrophe). */
export function presentAuditCsvLine(row: AuditEntryRow): string {
  return csvLine([
    String(row.sequence),
    row.at.toISOString(),
    row.actorKind,
    row.actorId,
    row.actorLabel,
    row.address ?? '',
    row.siteId ?? '',
    row.exhibitId ?? '',
    row.hardwareId ?? '',
    row.resource,
    row.resourceId,
    row.action,
    row.beforeJson ?? '',
    row.afterJson ?? '',
    row.hash,
  ]);
}

/** The download's name: `audit-log-<organization id>-<YYYYMMDD-HHmmss>.csv` (UTC). */
export function auditCsvFileName(organizationId: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `audit-log-${organizationId}-${stamp}.csv`;
}
