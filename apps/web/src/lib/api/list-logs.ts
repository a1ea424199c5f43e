import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LOG_LEVELS, LOGS_PER_PAGE, type LogLevel, type LogPage } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys, type DeviceKind } from '../query-keys';

/** Whose logs: an exhibit's or a hardware unit's. */
export type LogSource = { kind: DeviceKind; id: string };

/** What one page of logs asks for: the range in epoch milliseconds, the page (from 0) and the levels shown. */
export type LogPageQuery = { start: number; end: number; pageIdx: number; levels: readonly LogLevel[] };

/** `debug,info`: the levels in their fixed order, so one choice is always one query key; empty for none. */
export function levelsParam(levels: readonly LogLevel[]): string {
  return LOG_LEVELS.filter((level) => levels.includes(level)).join(',');
}

/**
 * GET /logging/exhibit?exhibitId= or /logging/hardware?hardwareId=: one page of the device's logs
 * in the range (newest first) and how many match in all. An empty `levels` asks for none.
 */
export const listLogs = ({ kind, id }: LogSource, query: LogPageQuery) =>
  api.get<LogPage>(`/logging/${kind}`, {
    [`${kind}Id`]: id,
    start: query.start,
    end: query.end,
    pageIdx: query.pageIdx,
    logsPerPage: LOGS_PER_PAGE,
    levels: levelsParam(query.levels),
  });

export const listLogsQueryOptions = (source: LogSource, query: LogPageQuery) =>
  queryOptions({
    queryKey: queryKeys.logPage(source.kind, source.id, { start: query.start, end: query.end, pageIdx: query.pageIdx, levels: levelsParam(query.levels) }),
    queryFn: () => listLogs(source, query),
    // Logs keep coming: a page shown again, or Fetch, reads it from the server.
    staleTime: 0,
  });

/** The logs view's page; the previous page stays shown while the next one loads. Off while `enabled` is false (live mode). */
export function useLogs(source: LogSource, query: LogPageQuery, enabled = true) {
  return useQuery({ ...listLogsQueryOptions(source, query), enabled: Boolean(source.id) && enabled, placeholderData: keepPreviousData });
}
