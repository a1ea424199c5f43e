import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AUDIT_ENTRIES_PER_PAGE, type AuditAction, type AuditPage } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The filters of the audit log (all optional; times in epoch milliseconds, `to` excluded). */
export type AuditFilter = {
  siteId?: string;
  exhibitId?: string;
  hardwareId?: string;
  /** Part of an email or an API key's name. */
  actor?: string;
  action?: AuditAction;
  from?: number;
  to?: number;
};

/** The filters as query parameters (empty ones left out), the same for the list and the CSV. */
export function auditFilterQuery(filter: AuditFilter): Record<string, string | number | undefined> {
  return {
    siteId: filter.siteId || undefined,
    exhibitId: filter.exhibitId || undefined,
    hardwareId: filter.hardwareId || undefined,
    actor: filter.actor?.trim() || undefined,
    action: filter.action,
    from: filter.from,
    to: filter.to,
  };
}

/** GET /audit/organization/{id}/entries: one page of the organization's audit log, newest first (`cursor`: the previous page's `nextCursor`). */
export const listAuditEntries = (organizationId: string, filter: AuditFilter, cursor: string | undefined) =>
  api.get<AuditPage>(`/audit/organization/${organizationId}/entries`, { ...auditFilterQuery(filter), cursor, pageSize: AUDIT_ENTRIES_PER_PAGE });

export const listAuditEntriesQueryOptions = (organizationId: string, filter: AuditFilter, cursor: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.auditPage(organizationId, { ...auditFilterQuery(filter), cursor }),
    queryFn: () => listAuditEntries(organizationId, filter, cursor),
    // Changes keep being recorded: a page shown again is read again.
    staleTime: 0,
  });

/** The audit log page's entries; the previous page stays shown while the next one loads. */
export function useAuditEntries(organizationId: string, filter: AuditFilter, cursor: string | undefined) {
  return useQuery({ ...listAuditEntriesQueryOptions(organizationId, filter, cursor), enabled: Boolean(organizationId), placeholderData: keepPreviousData });
}
