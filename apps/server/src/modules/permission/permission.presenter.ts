import { toLowerRole, type ExhibitMember, type Permission } from '@plinth/shared';
import type { PermissionRow } from './permission.repository.js';

/** A grant as the organization and site user lists show it (role in lower case, as the spec's calls use). */
export function presentPermission(row: PermissionRow): Permission {
  return { ...presentExhibitMember(row), role: toLowerRole(row.role) };
}

/** A grant on an exhibit as the exhibit's Users tab shows it (role in upper case, spec 3 Exhibit user). */
export function presentExhibitMember(row: PermissionRow): ExhibitMember {
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    accountCreated: row.accountCreated,
  };
}
