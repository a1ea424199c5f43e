import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Schedules } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys, type ScheduleRangeKey } from '../../../lib/query-keys';

export type ListSchedulesInput = { exhibitId: string; range: ScheduleRangeKey };

/**
 * GET /exhibit-management/scheduling/{exhibitId}?start&end: the occurrences starting in the range
 * (ISO date-times), the site's time zone and whether the caller may change them (canModify).
 */
export const listSchedules = ({ exhibitId, range }: ListSchedulesInput) =>
  api.get<Schedules>(`/exhibit-management/scheduling/${exhibitId}`, { start: range.start, end: range.end });

export const listSchedulesQueryOptions = (input: ListSchedulesInput) =>
  queryOptions({ queryKey: queryKeys.exhibitSchedulesRange(input.exhibitId, input.range), queryFn: () => listSchedules(input) });

/**
 * The Scheduling tab's calendar: the events of the range it shows. Moving to another range keeps
 * the previous events on screen until the new ones are read; live schedule events read it again.
 */
export function useExhibitSchedules(exhibitId: string, range: ScheduleRangeKey | null) {
  return useQuery({
    ...listSchedulesQueryOptions({ exhibitId, range: range ?? { start: '', end: '' } }),
    enabled: Boolean(exhibitId && range),
    placeholderData: keepPreviousData,
  });
}
