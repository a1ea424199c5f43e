import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKey, type CreatedApiKey, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { apiKeyGrants, type Grants } from '../access/grants.js';
import type { ApiKeyPrincipal } from '../auth/auth-user.js';
import { requireOrganization } from '../organization/organization.service.js';
import { presentApiKey } from './api-keys.presenter.js';
import {
  findApiKeyRow,
  findApiKeyState,
  findOrganizationSites,
  insertApiKey,
  listApiKeyRows,
  revokeApiKeyRow,
  useApiKey,
  type ApiKeyRow,
} from './api-keys.repository.js';
import type { AuditContext } from '../audit/audit-context.js';

/** The throttle's window: `API_KEY_RATE_LIMIT` calls per key per minute, counted in the database by every node. */
const WINDOW_MS = 60_000;

/** `plk_<lookup: 16 hex>_<secret: 32 random bytes, base64url>`. */
const KEY_FORMAT = /^plk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** Who creates or revokes a key: always a person. */
export type KeyManager = { id: string; email: string };

export type NewApiKeyInput = { name: string; role: Role; siteIds?: string[] | null; expiresAt?: string | null };

/** The organization's keys (its managers and platform admins only), newest first. */
export async function listApiKeys(deps: AppDeps, grants: Grants, organizationId: string): Promise<ApiKey[]> {
  await requireOrganization(deps, grants, { id: organizationId, right: 'administer' });
  const rows = await listApiKeyRows(deps.db, organizationId);
  const siteIds = [...new Set(rows.flatMap((row) => row.siteIds ?? []))];
  const siteNames = new Map((await findOrganizationSites(deps.db, organizationId, siteIds)).map((s) => [s.id, s.name]));
  return rows.map((row) => presentApiKey(row, siteNames));
}

/**
 * Creates a key of the organization for `role` on it, or on the chosen sites of it. The value is
 * answered here once; only its SHA-256 is stored.
 */
export async function createApiKey(
  deps: AppDeps,
  grants: Grants,
  create: { organizationId: string; input: NewApiKeyInput; by: KeyManager; audit: AuditContext },
): Promise<CreatedApiKey> {
  const { organizationId, input, by } = create;
  await requireOrganization(deps, grants, { id: organizationId, right: 'administer' });
  const siteIds = input.siteIds ? [...new Set(input.siteIds)] : null;
  const sites = siteIds ? await findOrganizationSites(deps.db, organizationId, siteIds) : [];
  if (siteIds && sites.length !== siteIds.length) throw new AppError('ValidationError', 'siteIds: every site must belong to the organization');
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= deps.clock.now()) throw new AppError('ValidationError', 'expiresAt: must be in the future');
  const lookup = randomBytes(8).toString('hex');
  const key = `${API_KEY_PREFIX}${lookup}_${newSecret()}`;
  const row = await insertApiKey(deps.db, {
    organizationId,
    name: input.name,
    role: input.role,
    siteIds,
    lookup,
    secretHash: hashSecret(key),
    expiresAt,
    createdById: by.id,
    createdBy: by.email,
  });
  const created = presentApiKey(row, new Map(sites.map((s) => [s.id, s.name])));
  // The key itself never: its name, role, scope and expiry.
  const { name, role, expiresAt: expires } = created;
  await deps.audit.record(create.audit, { organizationId, resource: 'apiKey', resourceId: row.id, action: 'create', after: { name, role, siteIds, expiresAt: expires } });
  return { ...created, key };
}

/** Revokes a key at once (every node checks the database on every call); revoking it again changes nothing. */
export async function revokeApiKey(deps: AppDeps, grants: Grants, revoke: { id: string; by: KeyManager; audit: AuditContext }): Promise<ApiKey> {
  const found = await findApiKeyRow(deps.db, revoke.id);
  if (!found || !grants.isOrganizationVisible(found.organizationId)) throw new AppError('NotFound', 'The API key does not exist.');
  await requireOrganization(deps, grants, { id: found.organizationId, right: 'administer' });
  const revoked = await revokeApiKeyRow(deps.db, { id: found.id, at: deps.clock.now(), by: revoke.by.email });
  const row: ApiKeyRow = revoked ?? found;
  if (revoked) await deps.audit.record(revoke.audit, { organizationId: row.organizationId, resource: 'apiKey', resourceId: row.id, action: 'revoke', before: { name: row.name, role: row.role } });
  const siteNames = new Map((await findOrganizationSites(deps.db, row.organizationId, row.siteIds ?? [])).map((s) => [s.id, s.name]));
  return presentApiKey(row, siteNames);
}

/** What a key call carries: who (the key, by name) and what it may do. */
export type ApiKeyAuth = { principal: ApiKeyPrincipal; grants: Grants };

/**
 * Authenticates `Authorization: Bearer <key>`: the live key whose hash matches, checked in the
 * database on every call (a revocation holds at once on every node), counted against the key's
 * throttle. 401 naming why (not a key, revoked, expired); 429 with Retry-After past the budget.
 */
export async function authenticateApiKey(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, key: string): Promise<ApiKeyAuth> {
  const match = KEY_FORMAT.exec(key);
  if (!match) throw new AppError('Unauthorized', 'The API key is not valid.');
  const now = deps.clock.now();
  const lookup = match[1]!;
  const secretHash = hashSecret(key);
  const used = await useApiKey(deps.db, { lookup, secretHash, now, windowMs: WINDOW_MS });
  if (!used) throw await refusal(deps, { lookup, secretHash, now });
  const limit = deps.config.API_KEY_RATE_LIMIT;
  if (used.windowCount > limit) {
    const seconds = Math.max(1, Math.ceil((used.windowStartedAt.getTime() + WINDOW_MS - now.getTime()) / 1000));
    throw new AppError('TooManyRequests', `Too many calls with this API key (at most ${limit} a minute). Try again in ${seconds} seconds.`, {
      details: { retryAfterSeconds: seconds },
      headers: { 'retry-after': String(seconds) },
    });
  }
  return {
    principal: { id: used.id, name: used.name, organizationId: used.organizationId },
    grants: apiKeyGrants(used),
  };
}

async function refusal(deps: Pick<AppDeps, 'db'>, key: { lookup: string; secretHash: string; now: Date }): Promise<AppError> {
  const state = await findApiKeyState(deps.db, key.lookup, key.secretHash);
  if (state?.revokedAt) return new AppError('Unauthorized', 'This API key has been revoked.');
  if (state?.expiresAt && state.expiresAt <= key.now) return new AppError('Unauthorized', 'This API key has expired.');
  return new AppError('Unauthorized', 'The API key is not valid.');
}
