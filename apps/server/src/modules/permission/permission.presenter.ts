import { toLowerRole, type Permission } from '@plinth/shared';
import type { PermissionRow } from './permission.repository.js';

/** A grant as the organization and site user lists show it (role in lower case, as the spec's calls use). */
export function presentPermission(row: PermissionRow): Permission {
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: toLowerRole(row.role),
    accountCreated: row.accountCreated,
  };
}
