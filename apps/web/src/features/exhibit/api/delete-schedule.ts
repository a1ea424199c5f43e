import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type DeleteScheduleInput = {
  exhibitId: string;
  eventId: string;
  /** The series of the occurrence, when it is one. */
  recurringId: string | null;
  /** Delete every occurrence of the series that has not run yet, not only this one. */
  changeAll: boolean;
};

/** DELETE /exhibit-management/scheduling/{eventId}?changeAll&recurringId: answers how many occurrences went. */
export const deleteSchedule = ({ eventId, recurringId, changeAll }: DeleteScheduleInput) =>
  api.delete<{ deleted: number }>(`/exhibit-management/scheduling/${eventId}`, { changeAll: String(changeAll), recurringId });

/** Deletes an event or its series, then reads the exhibit's calendar again. */
export function useDeleteSchedule() {
  return useRefreshingMutation(deleteSchedule, ({ exhibitId }) => [queryKeys.exhibitSchedules(exhibitId)]);
}
