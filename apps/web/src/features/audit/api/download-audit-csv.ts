import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { saveBlob } from '../../../lib/save-file';
import { auditFilterQuery, type AuditFilter } from './list-audit-entries';

/**
 * GET /audit/organization/{id}/entries.csv with the page's filters: the server streams every
 * matching entry as a CSV, saved under the server's file name. The console never builds the file.
 */
export async function downloadAuditCsv(organizationId: string, filter: AuditFilter): Promise<void> {
  const { blob, fileName } = await apiDownload(`/audit/organization/${organizationId}/entries.csv`, auditFilterQuery(filter), 'text/csv');
  saveBlob(blob, fileName ?? `audit-log-${organizationId}-${formatDate(new Date(), 'fileStamp')}.csv`);
}

/** Download CSV; the button shows its pending state and the page its error. Nothing cached changes. */
export function useDownloadAuditCsv(organizationId: string) {
  return useMutation({ mutationFn: (filter: AuditFilter) => downloadAuditCsv(organizationId, filter) });
}
