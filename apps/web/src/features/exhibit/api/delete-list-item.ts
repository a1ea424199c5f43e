import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type DeleteListItemInput = { exhibitId: string; listId: string; listName: string };

/** DELETE /exhibit-management/exhibit/{id}/settinglist/{listId}?listName=: removes one item. */
export const deleteListItem = ({ exhibitId, listId, listName }: DeleteListItemInput) =>
  api.delete<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/settinglist/${encodeURIComponent(listId)}`, { listName });

/** Deletes an item of a setting list. */
export function useDeleteListItem(exhibitId: string, listId: string) {
  return useRefreshingMutation((listName: string) => deleteListItem({ exhibitId, listId, listName }), () => [queryKeys.exhibitManifest(exhibitId)]);
}
