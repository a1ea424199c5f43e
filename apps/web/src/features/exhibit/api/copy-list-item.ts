import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CopyListItemInput = { exhibitId: string; listId: string; listName: string; sourceName: string };

/** POST /exhibit-management/exhibit/{id}/settinglist/{listId}/settinglistitem: a copy of the item `sourceName` under a new name. */
export const copyListItem = ({ exhibitId, listId, listName, sourceName }: CopyListItemInput) =>
  api.post<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/settinglist/${encodeURIComponent(listId)}/settinglistitem`, {
    listName,
    settingListItem: sourceName,
  });

/** Copies an item of a setting list. */
export function useCopyListItem(exhibitId: string, listId: string) {
  return useRefreshingMutation(
    ({ listName, sourceName }: { listName: string; sourceName: string }) => copyListItem({ exhibitId, listId, listName, sourceName }),
    () => [queryKeys.exhibitManifest(exhibitId)],
  );
}
