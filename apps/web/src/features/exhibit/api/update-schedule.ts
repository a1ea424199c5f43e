import type { ScheduledEvent, UpdateSchedule } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type UpdateScheduleInput = { eventId: string; body: UpdateSchedule };

/**
 * PUT /exhibit-management/scheduling/{eventId}: edits one occurrence (`changeAll` false) or rewrites
 * every occurrence of its series that has not run yet from it (`changeAll` true; required when the
 * frequency or the series end changes). 409 when the occurrence already ran.
 */
export const updateSchedule = ({ eventId, body }: UpdateScheduleInput) =>
  api.put<{ schedules: ScheduledEvent[] }>(`/exhibit-management/scheduling/${eventId}`, body);

/** Edits an event or its series, then reads the exhibit's calendar again. */
export function useUpdateSchedule() {
  return useRefreshingMutation(updateSchedule, ({ body }) => [queryKeys.exhibitSchedules(body.exhibitId)]);
}
