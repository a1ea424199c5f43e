import { useQuery } from '@tanstack/react-query';
import type { Exhibit, Hardware } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

export const listExhibits = () => api.get<{ exhibits: Exhibit[] }>('/exhibit-management/exhibit');
export const listExhibitsBySites = (siteIds: string[]) =>
  api.get<{ exhibits: Exhibit[] }>('/exhibit-management/exhibit/by-site-ids/', { siteId: siteIds });
export const getExhibit = (id: string) => api.get<Exhibit>(`/exhibit-management/exhibit/${id}`);
export const createExhibit = (name: string, siteId: string) =>
  api.post<Exhibit>('/exhibit-management/exhibit', { name, siteId });
export const updateExhibit = (
  id: string,
  body: { name?: string; mqttPath?: string; leaderId?: string | null; manifestLocked?: boolean },
) => api.put<Exhibit>(`/exhibit-management/exhibit/${id}`, body);
export const deleteExhibit = (id: string) => api.delete<{ ok: true }>(`/exhibit-management/exhibit/${id}`);

export const listHardwareBySite = (siteId: string) => api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { siteId });
export const listHardwareBySites = (siteIds: string[]) =>
  api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { siteIds: siteIds.join(',') });
export const listHardwareByExhibit = (exhibitId: string) =>
  api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { exhibitId });
export const getHardware = (id: string) => api.get<Hardware>(`/hardware-mgmt/hardware/${id}`);
export const createHardware = (name: string, siteId: string) =>
  api.post<Hardware>('/hardware-mgmt/hardware', { name, siteId });
export const updateHardware = (id: string, body: { name?: string; exhibitId?: string | null; controlDebug?: boolean }) =>
  api.put<Hardware>(`/hardware-mgmt/hardware/${id}`, body);
export const deleteHardware = (id: string) => api.delete<{ ok: true }>(`/hardware-mgmt/hardware/${id}`);

export function useExhibits() {
  return useQuery({ queryKey: queryKeys.exhibits, queryFn: listExhibits });
}
export function useExhibitsBySites(siteIds: string[]) {
  return useQuery({
    queryKey: queryKeys.exhibitsBySites(siteIds),
    queryFn: () => listExhibitsBySites(siteIds),
    enabled: siteIds.length > 0,
  });
}
export function useExhibit(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.exhibit(id ?? ''), queryFn: () => getExhibit(id!), enabled: Boolean(id) });
}
export function useHardwareBySite(siteId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.hardwareBySite(siteId ?? ''),
    queryFn: () => listHardwareBySite(siteId!),
    enabled: Boolean(siteId),
  });
}
export function useHardwareBySites(siteIds: string[]) {
  return useQuery({
    queryKey: queryKeys.hardwareBySites(siteIds),
    queryFn: () => listHardwareBySites(siteIds),
    enabled: siteIds.length > 0,
  });
}
export function useHardware(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.hardware(id ?? ''), queryFn: () => getHardware(id!), enabled: Boolean(id) });
}
