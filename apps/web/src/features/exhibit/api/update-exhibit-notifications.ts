import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationToggle } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ExhibitNotifications } from './list-exhibit-notifications';

export type UpdateNotificationInput = {
  exhibitId: string;
  /** The row's user; left out of the body for the caller's own row. */
  userId: string;
  isOwn: boolean;
  toggle: NotificationToggle;
  value: boolean;
};

/** PUT /exhibit-management/notifications/{exhibitId}: one toggle, for another user (`userId`) or the caller. */
export const updateExhibitNotification = ({ exhibitId, userId, isOwn, toggle, value }: UpdateNotificationInput) =>
  api.put<unknown>(`/exhibit-management/notifications/${exhibitId}`, {
    ...(isOwn ? {} : { userId }),
    [toggle]: value,
  });

type Snapshot = { previous: ExhibitNotifications | undefined };

/**
 * Flips a toggle at once on screen (a switch should not wait for the server), puts the previous
 * rows back if the server refuses, and reads them again either way.
 */
export function useUpdateExhibitNotification(exhibitId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.exhibitNotifications(exhibitId);
  return useMutation<unknown, Error, UpdateNotificationInput, Snapshot>({
    mutationFn: updateExhibitNotification,
    onMutate: async ({ userId, toggle, value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ExhibitNotifications>(key);
      queryClient.setQueryData<ExhibitNotifications>(
        key,
        (current) =>
          current && {
            exhibitNotifications: current.exhibitNotifications.map((row) => (row.userId === userId ? { ...row, [toggle]: value } : row)),
          },
      );
      return { previous };
    },
    onError: (_error, _input, snapshot) => {
      if (snapshot?.previous) queryClient.setQueryData(key, snapshot.previous);
    },
    // Not awaited: the switch's outcome (and its error) should not wait for the list to be read again.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}
