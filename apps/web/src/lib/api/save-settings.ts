import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Setting } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** Whose settings: an organization's or a site's (`id` is the organization's or the site's). */
export type SettingsOwner = { scope: 'organization' | 'site'; id: string };

/** One changed setting of the settings form. */
export type SettingChange = { idString: string; value: string };

/** What Save answers: one outcome per change, in the order sent. */
export type SaveSettingsResult = PromiseSettledResult<Setting>[];

/** PUT /org-management/organization/{id}/setting/{idString} or /org-management/site/setting/{siteId}/{idString}. */
export const saveSetting = ({ scope, id }: SettingsOwner, { idString, value }: SettingChange) =>
  scope === 'organization'
    ? api.put<Setting>(`/org-management/organization/${id}/setting/${encodeURIComponent(idString)}`, { value })
    : api.put<Setting>(`/org-management/site/setting/${id}/${encodeURIComponent(idString)}`, { value });

/**
 * Save of the settings form: every change at once, one failing not stopping the others (the form
 * reports which were saved). When any was saved, the owner's settings are read again.
 */
export function useSaveSettings(owner: SettingsOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: SettingChange[]): Promise<SaveSettingsResult> => Promise.allSettled(changes.map((change) => saveSetting(owner, change))),
    onSuccess: (results) => {
      if (!results.some((result) => result.status === 'fulfilled')) return;
      if (owner.scope === 'organization') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.organization(owner.id) });
      } else {
        void queryClient.invalidateQueries({ queryKey: queryKeys.siteSettings(owner.id) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.site(owner.id) });
      }
    },
  });
}
