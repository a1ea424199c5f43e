import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteMutation } from '../../../lib/use-delete-mutation';

/** DELETE /exhibit-management/exhibit/{id}: 409 LockedExhibits while its manifest is locked. */
export const deleteExhibit = (exhibitId: string) => api.delete<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}`);

/** Deletes an exhibit: the exhibit lists are read again. */
export function useDeleteExhibit() {
  return useDeleteMutation({ mutationFn: deleteExhibit, recordKey: queryKeys.exhibit, exact: true, listKeys: () => [queryKeys.exhibits] });
}
