import { normalizeEmail, type LowerRole, type Permission } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';
import { useRefreshingMutation } from '../use-refreshing-mutation';
import type { PermissionOwner } from './list-permissions';

export type CreatePermissionInput = { email: string; role: LowerRole };

/**
 * POST /org-management/permission/{scope}: gives a person (by email, lowercased) a role here. An
 * email without an account gets an invitation mail from the server.
 */
export const createPermission = (owner: PermissionOwner, { email, role }: CreatePermissionInput) =>
  api.post<Permission>(`/org-management/permission/${owner.scope}`, {
    [owner.scope === 'organization' ? 'organizationId' : 'siteId']: owner.id,
    email: normalizeEmail(email),
    role,
  });

/** Adds a user; the list of users is read again. */
export function useCreatePermission(owner: PermissionOwner) {
  return useRefreshingMutation((input: CreatePermissionInput) => createPermission(owner, input), () => [queryKeys.permissions(owner.scope, owner.id)]);
}
