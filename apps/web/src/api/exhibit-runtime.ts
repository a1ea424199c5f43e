import { useQuery } from '@tanstack/react-query';
import type { ManifestResponse, OpMode, Role, SettingValue, Token } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

/** The exhibit runtime calls of spec 7.1 and the exhibit token calls of 7.4. */
const base = (id: string) => `/exhibit-management/exhibit/${id}`;
const part = (value: string) => encodeURIComponent(value);

/** The manifest with live values, the op mode (Off while offline), online and lock state. */
export const getExhibitManifest = (id: string) => api.get<ManifestResponse>(`${base(id)}/manifest`);

/** Fires a control (`itemId` for a button of a group); 409 ExhibitOffline when it cannot be delivered. */
export const fireControl = (id: string, controlId: string, itemId?: string) =>
  api.post<{ delivered: true }>(`${base(id)}/control/${part(controlId)}`, {}, { itemId });

/** Saves one setting value (desired state); `listId` and `listName` address a setting of a list item. */
export const saveSetting = (id: string, settingId: string, value: SettingValue, where: { listId?: string; listName?: string } = {}) =>
  api.post<{ ok: true }>(`${base(id)}/setting/${part(settingId)}`, {
    value,
    ...where,
  });

/** Saves the content id chosen for a StrapiContent setting (the id travels encoded in the path). */
export const saveStrapiContent = (id: string, settingId: string, contentId: string | null) =>
  api.put<{ ok: true }>(`${base(id)}/strapi-content/${part(settingId)}`, {
    contentId,
  });

export const setOpMode = (id: string, opMode: OpMode) => api.post<{ ok: true }>(`${base(id)}/opMode`, { opMode });

/** Copies the leader's current settings to all its followers now. */
export const syncFollowers = (id: string) => api.post<{ ok: true; followers: number }>(`${base(id)}/sync-followers`);

/** A new list item with default values. */
export const createListItem = (id: string, listId: string, listName: string) =>
  api.post<{ ok: true }>(`${base(id)}/settinglist/${part(listId)}`, {
    listName,
  });

/** A copy of the item named `sourceName` under a new name. */
export const copyListItem = (id: string, listId: string, listName: string, sourceName: string) =>
  api.post<{ ok: true }>(`${base(id)}/settinglist/${part(listId)}/settinglistitem`, { listName, settingListItem: sourceName });

/** The list's item names in their new order. */
export const orderListItems = (id: string, listId: string, order: string[]) =>
  api.post<{ ok: true }>(`${base(id)}/settinglist/${part(listId)}/order`, {
    order,
  });

export const deleteListItem = (id: string, listId: string, listName: string) =>
  api.delete<{ ok: true }>(`${base(id)}/settinglist/${part(listId)}`, {
    listName,
  });

/** The caller's effective role on the exhibit. */
export const getMyExhibitRole = (id: string) =>
  api.get<{
    exhibitUser: {
      exhibitId: string;
      userId: string;
      email: string;
      role: Role;
    };
  }>(`/exhibit-management/permission/by-exhibit-id/user/${id}`);

export const listExhibitTokens = (exhibitId: string) => api.get<{ tokens: Token[] }>(`/auth/exhibit/${exhibitId}`);
/** Creates a token; its value is answered this once only. */
export const createExhibitToken = (exhibitId: string, name: string) => api.post<Token & { token: string }>('/auth/exhibit', { name, exhibitId });
export const deleteExhibitToken = (tokenId: string) => api.delete<{ ok: true }>(`/auth/exhibit/delete-token/${tokenId}`);

export function useExhibitManifest(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.exhibitManifest(id ?? ''),
    queryFn: () => getExhibitManifest(id!),
    enabled: Boolean(id),
  });
}
export function useMyExhibitRole(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.exhibitRole(id ?? ''),
    queryFn: () => getMyExhibitRole(id!),
    enabled: Boolean(id),
  });
}
export function useExhibitTokens(id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys.exhibitTokens(id ?? ''),
    queryFn: () => listExhibitTokens(id!),
    enabled: Boolean(id) && enabled,
    staleTime: 0,
  });
}
