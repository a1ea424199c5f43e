import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Report } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys, type ExhibitReportKey } from '../../../lib/query-keys';

/** One exhibit report: the range (epoch ms), the bucket width in seconds, Events by Value or not, and the viewer's zone. */
export type ExhibitReportParams = ExhibitReportKey;

/**
 * GET /reporting/exhibit/report?exhibitId&start&end&interval&filter&timeZone: the event counts per
 * bucket (labels are the bucket starts), one dataset per event name, or per value with filter=value.
 */
export const getExhibitReport = (exhibitId: string, params: ExhibitReportParams) =>
  api.get<{ report: Report }>('/reporting/exhibit/report', {
    exhibitId,
    start: params.start,
    end: params.end,
    interval: params.interval,
    filter: params.filter ?? undefined,
    timeZone: params.timeZone,
  });

export const getExhibitReportQueryOptions = (exhibitId: string, params: ExhibitReportParams) =>
  queryOptions({ queryKey: queryKeys.exhibitReport(exhibitId, params), queryFn: () => getExhibitReport(exhibitId, params), staleTime: 0 });

/** One chart of the reports tab. */
export function useExhibitReport(exhibitId: string, params: ExhibitReportParams) {
  return useQuery({ ...getExhibitReportQueryOptions(exhibitId, params), enabled: Boolean(exhibitId) });
}
