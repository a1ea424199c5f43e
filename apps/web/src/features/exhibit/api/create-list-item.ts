import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateListItemInput = { exhibitId: string; listId: string; listName: string };

/** POST /exhibit-management/exhibit/{id}/settinglist/{listId}: a new item with default values. */
export const createListItem = ({ exhibitId, listId, listName }: CreateListItemInput) =>
  api.post<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/settinglist/${encodeURIComponent(listId)}`, { listName });

/** Adds an item to a setting list (`listName` is the new item's name). */
export function useCreateListItem(exhibitId: string, listId: string) {
  return useRefreshingMutation((listName: string) => createListItem({ exhibitId, listId, listName }), () => [queryKeys.exhibitManifest(exhibitId)]);
}
