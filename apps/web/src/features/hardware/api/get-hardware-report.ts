import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Report } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys, type HardwareReportKey } from '../../../lib/query-keys';

/** The hardware report's window (at most HARDWARE_REPORT_DAYS days, epoch ms) and the viewer's zone. */
export type HardwareReportParams = HardwareReportKey;

/**
 * GET /reporting/hardware/report?hardwareId&start&end&timeZone: the board's event counts, one label
 * per day (the day's start in the viewer's zone) and one dataset per event type.
 */
export const getHardwareReport = (hardwareId: string, params: HardwareReportParams) =>
  api.get<{ report: Report }>('/reporting/hardware/report', { hardwareId, start: params.start, end: params.end, timeZone: params.timeZone });

export const getHardwareReportQueryOptions = (hardwareId: string, params: HardwareReportParams) =>
  queryOptions({ queryKey: queryKeys.hardwareReport(hardwareId, params), queryFn: () => getHardwareReport(hardwareId, params), staleTime: 0 });

/** The hardware reports tab. */
export function useHardwareReport(hardwareId: string, params: HardwareReportParams) {
  return useQuery({ ...getHardwareReportQueryOptions(hardwareId, params), enabled: Boolean(hardwareId) });
}
