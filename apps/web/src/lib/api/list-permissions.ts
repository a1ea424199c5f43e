import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Permission } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys, type PermissionScope } from '../query-keys';

/** The users of an organization or a site, and whether the caller may manage them. */
export type PermissionList = { permissions: Permission[]; canManage: boolean };

/** Where a scope's users live: an organization or a site (`id` is the organization's or the site's). */
export type PermissionOwner = { scope: PermissionScope; id: string };

/** GET /org-management/permission/organization?organizationId= or /org-management/permission/site/{siteId}. */
export const listPermissions = ({ scope, id }: PermissionOwner) =>
  scope === 'organization'
    ? api.get<PermissionList>('/org-management/permission/organization', { organizationId: id })
    : api.get<PermissionList>(`/org-management/permission/site/${id}`);

export const listPermissionsQueryOptions = (owner: PermissionOwner) =>
  queryOptions({ queryKey: queryKeys.permissions(owner.scope, owner.id), queryFn: () => listPermissions(owner) });

/** The users tab of an organization or a site; `enabled` false waits until the tab is shown. */
export function usePermissions(owner: PermissionOwner, enabled = true) {
  return useQuery({ ...listPermissionsQueryOptions(owner), enabled: Boolean(owner.id) && enabled });
}
