import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { apiKeys, sites } from '../../db/schema.js';

/** An API key as stored, without its hash or its throttle counters. */
export type ApiKeyRow = {
  id: string;
  organizationId: string;
  name: string;
  role: Role;
  siteIds: string[] | null;
  expiresAt: Date | null;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
};

const listed = {
  id: apiKeys.id,
  organizationId: apiKeys.organizationId,
  name: apiKeys.name,
  role: apiKeys.role,
  siteIds: apiKeys.siteIds,
  expiresAt: apiKeys.expiresAt,
  createdBy: apiKeys.createdBy,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  revokedBy: apiKeys.revokedBy,
};

export type NewApiKey = {
  organizationId: string;
  name: string;
  role: Role;
  siteIds: string[] | null;
  lookup: string;
  secretHash: string;
  expiresAt: Date | null;
  createdById: string;
  createdBy: string;
};

export async function insertApiKey(db: Db, key: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(key).returning(listed);
  return row!;
}

/** The organization's keys, newest first (revoked ones included). */
export async function listApiKeyRows(db: Db, organizationId: string): Promise<ApiKeyRow[]> {
  return db.select(listed).from(apiKeys).where(eq(apiKeys.organizationId, organizationId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findApiKeyRow(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select(listed).from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

/** Marks a key revoked (once: a revoked key keeps its first revocation); answers it, or nothing when it was already revoked. */
export async function revokeApiKeyRow(db: Db, revoke: { id: string; at: Date; by: string }): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: revoke.at, revokedBy: revoke.by })
    .where(and(eq(apiKeys.id, revoke.id), isNull(apiKeys.revokedAt)))
    .returning(listed);
  return row;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** A key that authenticated a call, with its count of calls in the current window. */
export type UsedApiKey = Pick<ApiKeyRow, 'id' | 'organizationId' | 'name' | 'role' | 'siteIds'> & { windowCount: number; windowStartedAt: Date };

/**
 * Counts one call on the live key whose lookup and hash match, in one atomic update (so calls on
 * every node count one by one): the count restarts when the window is over, and `last_used_at`
 * moves when it is a minute old. Nothing when no live key matches (unknown, wrong secret, revoked,
 * expired).
 */
export async function useApiKey(db: Db, use: { lookup: string; secretHash: string; now: Date; windowMs: number }): Promise<UsedApiKey | undefined> {
  const k = apiKeys;
  const windowOver = sql`(${k.windowStartedAt} is null or ${k.windowStartedAt} <= ${at(new Date(use.now.getTime() - use.windowMs))})`;
  const lastUsedStale = sql`(${k.lastUsedAt} is null or ${k.lastUsedAt} <= ${at(new Date(use.now.getTime() - 60_000))})`;
  const [row] = await db
    .update(k)
    .set({
      windowCount: sql`case when ${windowOver} then 1 else ${k.windowCount} + 1 end`,
      windowStartedAt: sql`case when ${windowOver} then ${at(use.now)} else ${k.windowStartedAt} end`,
      lastUsedAt: sql`case when ${lastUsedStale} then ${at(use.now)} else ${k.lastUsedAt} end`,
    })
    .where(
      and(
        eq(k.lookup, use.lookup),
        eq(k.secretHash, use.secretHash),
        isNull(k.revokedAt),
        or(isNull(k.expiresAt), gt(k.expiresAt, use.now)),
      ),
    )
    .returning({
      id: k.id,
      organizationId: k.organizationId,
      name: k.name,
      role: k.role,
      siteIds: k.siteIds,
      windowCount: k.windowCount,
      windowStartedAt: k.windowStartedAt,
    });
  return row ? { ...row, windowStartedAt: row.windowStartedAt ?? use.now } : undefined;
}

/** Why a presented key is not live: the row its lookup and hash name, if any. */
export async function findApiKeyState(db: Db, lookup: string, secretHash: string): Promise<Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'> | undefined> {
  const [row] = await db
    .select({ revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.lookup, lookup), eq(apiKeys.secretHash, secretHash)));
  return row;
}

/** The sites among `ids` that belong to the organization, with their names. */
export async function findOrganizationSites(db: Db, organizationId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(and(eq(sites.organizationId, organizationId), inArray(sites.id, ids)));
}
