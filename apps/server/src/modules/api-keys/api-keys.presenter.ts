import type { ApiKey } from '@plinth/shared';
import type { ApiKeyRow } from './api-keys.repository.js';

/** A key as listed: its scope with site names (sites deleted since are left out), never its value or hash. */
export function presentApiKey(row: ApiKeyRow, siteNames: ReadonlyMap<string, string>): ApiKey {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    role: row.role,
    sites: row.siteIds ? row.siteIds.flatMap((id) => (siteNames.has(id) ? [{ id, name: siteNames.get(id)! }] : [])) : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedBy,
  };
}
