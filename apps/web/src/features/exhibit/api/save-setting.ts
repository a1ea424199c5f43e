import type { SettingValue } from '@plinth/shared';
import { api } from '../../../lib/api-client';

export type SaveSettingInput = {
  exhibitId: string;
  settingId: string;
  value: SettingValue;
  /** A setting of a list item: the list and the item's name. */
  listId?: string;
  listName?: string;
};

/** POST /exhibit-management/exhibit/{id}/setting/{settingId}: stores the value (desired state) and sends it to the exhibit. */
export const saveSetting = ({ exhibitId, settingId, value, listId, listName }: SaveSettingInput) =>
  api.post<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/setting/${encodeURIComponent(settingId)}`, {
    value,
    ...(listId ? { listId, listName } : {}),
  });
