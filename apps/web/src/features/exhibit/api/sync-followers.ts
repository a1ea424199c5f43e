import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /exhibit-management/exhibit/{id}/sync-followers: copies the leader's current settings to all its followers now. */
export const syncFollowers = (exhibitId: string) => api.post<{ ok: true; followers: number }>(`/exhibit-management/exhibit/${exhibitId}/sync-followers`);

/** Apply to followers; the followers report their new values through their own live events. */
export function useSyncFollowers() {
  return useMutation({ mutationFn: syncFollowers });
}
