import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type OrderListItemsInput = { exhibitId: string; listId: string; order: string[] };

/** POST /exhibit-management/exhibit/{id}/settinglist/{listId}/order: the list's item names in their new order. */
export const orderListItems = ({ exhibitId, listId, order }: OrderListItemsInput) =>
  api.post<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/settinglist/${encodeURIComponent(listId)}/order`, { order });

/** Reorders the items of a setting list. */
export function useOrderListItems(exhibitId: string, listId: string) {
  return useRefreshingMutation((order: string[]) => orderListItems({ exhibitId, listId, order }), () => [queryKeys.exhibitManifest(exhibitId)]);
}
