import { queryKeys } from '../../../lib/query-keys';
import { errorText } from '../../../lib/mutation-state';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import type { PendingEdit } from '../lib/settings-tree';
import { saveSetting } from './save-setting';
import { saveStrapiContent } from './save-strapi-content';

/** What Save of the settings tab answers: the edits that failed, each with why. */
export type SaveSettingEditsResult = { failed: { edit: PendingEdit; message: string }[] };

/** Sends one pending edit with the call its kind needs. */
function saveEdit(exhibitId: string, edit: PendingEdit) {
  if (edit.type === 'StrapiContent' && !edit.listId) {
    return saveStrapiContent({ exhibitId, settingId: edit.settingId, contentId: edit.value === null ? null : String(edit.value) });
  }
  return saveSetting({ exhibitId, settingId: edit.settingId, value: edit.value, listId: edit.listId, listName: edit.listName });
}

/**
 * Save of the settings tab: the pending edits one after the other, a failure not stopping the
 * rest (the tab keeps the failed ones as Modified). The mutation ends once the manifest, with the
 * saved values and whether the exhibit applied them, has been read again.
 */
export function useSaveSettingEdits(exhibitId: string) {
  return useRefreshingMutation(async (edits: PendingEdit[]): Promise<SaveSettingEditsResult> => {
    const failed: SaveSettingEditsResult['failed'] = [];
    for (const edit of edits) {
      try {
        await saveEdit(exhibitId, edit);
      } catch (e) {
        failed.push({ edit, message: errorText(e, 'The setting could not be saved.') });
      }
    }
    return { failed };
  }, () => [queryKeys.exhibitManifest(exhibitId)]);
}
