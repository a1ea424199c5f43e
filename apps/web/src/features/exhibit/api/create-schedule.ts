import type { CreateSchedule, ScheduledEvent } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateScheduleInput = { exhibitId: string; body: CreateSchedule };

/** POST /exhibit-management/scheduling/{exhibitId}: creates an event (a series: one row per occurrence); answers what it wrote. */
export const createSchedule = ({ exhibitId, body }: CreateScheduleInput) =>
  api.post<{ schedules: ScheduledEvent[] }>(`/exhibit-management/scheduling/${exhibitId}`, body);

/** Creates an event, then reads the exhibit's calendar again. */
export function useCreateSchedule() {
  return useRefreshingMutation(createSchedule, ({ exhibitId }) => [queryKeys.exhibitSchedules(exhibitId)]);
}
