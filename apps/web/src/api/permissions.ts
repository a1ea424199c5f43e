import { useQuery } from '@tanstack/react-query';
import type { LowerRole, Permission } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

export type PermissionList = { permissions: Permission[]; canManage: boolean };

export const listOrganizationPermissions = (organizationId: string) =>
  api.get<PermissionList>('/org-management/permission/organization', { organizationId });
export const addOrganizationUser = (organizationId: string, email: string, role?: LowerRole) =>
  api.post<Permission>('/org-management/permission/organization', { organizationId, email: email.trim().toLowerCase(), role });
export const updateOrganizationPermission = (id: string, role: LowerRole) =>
  api.put<Permission>(`/org-management/permission/organization/${id}`, { role });
export const deleteOrganizationPermission = (id: string) =>
  api.delete<{ ok: true }>(`/org-management/permission/organization/${id}`);

export const listSitePermissions = (siteId: string) => api.get<PermissionList>(`/org-management/permission/site/${siteId}`);
export const addSiteUser = (siteId: string, email: string, role: LowerRole = 'viewer') =>
  api.post<Permission>('/org-management/permission/site', { siteId, email: email.trim().toLowerCase(), role });
export const updateSitePermission = (id: string, role: LowerRole) =>
  api.put<Permission>(`/org-management/permission/site/${id}`, { role });
export const deleteSitePermission = (id: string) => api.delete<{ ok: true }>(`/org-management/permission/site/${id}`);

export function useOrganizationPermissions(organizationId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys.organizationPermissions(organizationId ?? ''),
    queryFn: () => listOrganizationPermissions(organizationId!),
    enabled: Boolean(organizationId) && enabled,
  });
}
export function useSitePermissions(siteId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys.sitePermissions(siteId ?? ''),
    queryFn: () => listSitePermissions(siteId!),
    enabled: Boolean(siteId) && enabled,
  });
}
