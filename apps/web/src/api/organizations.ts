import { useQuery } from '@tanstack/react-query';
import type { Organization, OrganizationSummary, Setting, Site, SiteSummary } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

export const listOrganizations = () =>
  api.get<{ organizations: OrganizationSummary[]; canCreate: boolean }>('/org-management/organization');
export const getOrganization = (id: string) => api.get<Organization>(`/org-management/organization/${id}`);
export const createOrganization = (name: string) => api.post<Organization>('/org-management/organization', { name });
export const renameOrganization = (id: string, name: string) =>
  api.put<Organization>(`/org-management/organization/${id}`, { name });
export const deleteOrganization = (id: string) => api.delete<{ ok: true }>(`/org-management/organization/${id}`);
export const saveOrganizationSetting = (id: string, idString: string, value: string) =>
  api.put<Setting>(`/org-management/organization/${id}/setting/${encodeURIComponent(idString)}`, { value });
export const listOrganizationSites = (id: string) =>
  api.get<{ sites: SiteSummary[] }>(`/org-management/organization/${id}/sites`);
export const contentManagerLogin = (organizationId: string) =>
  api.post<{ user: unknown; token: string }>('/org-management/organization/setting/strapi/login', {}, { organizationId });

export const listSites = () => api.get<{ sites: SiteSummary[] }>('/org-management/site');
export const getSite = (id: string) => api.get<Site>(`/org-management/site/${id}`);
export const createSite = (name: string, organizationId: string) =>
  api.post<Site>('/org-management/site', { name, organizationId });
export const renameSite = (id: string, name: string) => api.put<Site>(`/org-management/site/${id}`, { name });
export const deleteSite = (id: string) => api.delete<{ ok: true }>(`/org-management/site/${id}`);
export const getSiteSettings = (siteId: string) =>
  api.get<{ siteSettings: Setting[] }>(`/org-management/site/setting/${siteId}`);
export const saveSiteSetting = (siteId: string, idString: string, value: string) =>
  api.put<Setting>(`/org-management/site/setting/${siteId}/${encodeURIComponent(idString)}`, { value });

export function useOrganizations() {
  return useQuery({ queryKey: queryKeys.organizations, queryFn: listOrganizations });
}
export function useOrganization(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.organization(id ?? ''), queryFn: () => getOrganization(id!), enabled: Boolean(id) });
}
export function useOrganizationSites(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.organizationSites(id ?? ''),
    queryFn: () => listOrganizationSites(id!),
    enabled: Boolean(id),
  });
}
export function useSites() {
  return useQuery({ queryKey: queryKeys.sites, queryFn: listSites });
}
export function useSite(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.site(id ?? ''), queryFn: () => getSite(id!), enabled: Boolean(id) });
}
export function useSiteSettings(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.siteSettings(id ?? ''), queryFn: () => getSiteSettings(id!), enabled: Boolean(id) });
}
