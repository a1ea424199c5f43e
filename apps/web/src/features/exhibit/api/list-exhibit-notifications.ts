import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationSubscription } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type ExhibitNotifications = {
  exhibitNotifications: NotificationSubscription[];
};

/** GET /exhibit-management/notifications/?exhibitId: every exhibit user's toggles, with whether the caller may change them. */
export const listExhibitNotifications = (exhibitId: string) =>
  api.get<ExhibitNotifications>('/exhibit-management/notifications/', {
    exhibitId,
  });

export const listExhibitNotificationsQueryOptions = (exhibitId: string) =>
  queryOptions({
    queryKey: queryKeys.exhibitNotifications(exhibitId),
    queryFn: () => listExhibitNotifications(exhibitId),
  });

/** The Notifications tab's rows; `exhibit.usersChanged` reads them again. */
export function useExhibitNotifications(exhibitId: string) {
  return useQuery({
    ...listExhibitNotificationsQueryOptions(exhibitId),
    enabled: Boolean(exhibitId),
  });
}
