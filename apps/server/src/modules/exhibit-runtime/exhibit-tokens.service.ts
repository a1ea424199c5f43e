import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { EXHIBIT_CREDENTIAL_TTL_MS, type ExhibitCredential } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { exhibits, exhibitTokens } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';

export type ExhibitTokenRow = { id: string; exhibitId: string; name: string; createdAt: Date };

/** Creates a token; the value is answered once, only its hash is kept. */
export async function createExhibitToken(
  deps: AppDeps,
  exhibitId: string,
  name: string,
): Promise<{ id: string; name: string; createdAt: string; token: string }> {
  const token = newSecret();
  const [row] = await deps.db
    .insert(exhibitTokens)
    .values({ exhibitId, name, tokenHash: hashSecret(token) })
    .returning({ id: exhibitTokens.id, name: exhibitTokens.name, createdAt: exhibitTokens.createdAt });
  return { id: row!.id, name: row!.name, createdAt: row!.createdAt.toISOString(), token };
}

export async function listExhibitTokens(deps: AppDeps, exhibitId: string): Promise<ExhibitTokenRow[]> {
  return deps.db
    .select({ id: exhibitTokens.id, exhibitId: exhibitTokens.exhibitId, name: exhibitTokens.name, createdAt: exhibitTokens.createdAt })
    .from(exhibitTokens)
    .where(eq(exhibitTokens.exhibitId, exhibitId))
    .orderBy(asc(exhibitTokens.createdAt));
}

export async function findExhibitToken(deps: AppDeps, tokenId: string): Promise<ExhibitTokenRow | undefined> {
  const [row] = await deps.db
    .select({ id: exhibitTokens.id, exhibitId: exhibitTokens.exhibitId, name: exhibitTokens.name, createdAt: exhibitTokens.createdAt })
    .from(exhibitTokens)
    .where(eq(exhibitTokens.id, tokenId));
  return row;
}

/** Deletes a token and disconnects the exhibits that authenticated with it. */
export async function deleteExhibitToken(deps: AppDeps, tokenId: string): Promise<void> {
  const [row] = await deps.db.delete(exhibitTokens).where(eq(exhibitTokens.id, tokenId)).returning({ exhibitId: exhibitTokens.exhibitId });
  if (row) deps.exhibitGateway.disconnectToken(row.exhibitId, tokenId);
}

/**
 * Trades an exhibit id and token for a short-lived credential that opens the socket. The
 * credential is signed with the token's stored hash, so it needs no state of its own and dies
 * with the token (any server node can check it).
 */
export async function authenticateExhibit(deps: AppDeps, exhibitId: string, token: string): Promise<ExhibitCredential> {
  const [row] = await deps.db
    .select({ id: exhibitTokens.id, tokenHash: exhibitTokens.tokenHash })
    .from(exhibitTokens)
    .innerJoin(exhibits, eq(exhibits.id, exhibitTokens.exhibitId))
    .where(and(eq(exhibitTokens.tokenHash, hashSecret(token)), eq(exhibitTokens.exhibitId, exhibitId)));
  if (!row) throw new AppError('Unauthorized', 'The exhibit id or token is not valid.');
  const expires = deps.clock.now().getTime() + EXHIBIT_CREDENTIAL_TTL_MS;
  const credential = `v1.${row.id}.${expires}.${sign(row.tokenHash, exhibitId, row.id, expires)}`;
  return { exhibitId, credential, expiresAt: new Date(expires).toISOString() };
}

const CREDENTIAL = /^v1\.([0-9a-f-]{36})\.(\d{1,15})\.([0-9a-f]{64})$/;

/** The token id a credential claims to come from (not checked), or null when it is malformed. */
export function credentialTokenId(credential: string): string | null {
  return CREDENTIAL.exec(credential)?.[1] ?? null;
}

/** Checks a credential for an exhibit; answers the token id it was issued from, or null. */
export async function verifyExhibitCredential(deps: AppDeps, exhibitId: string, credential: string): Promise<string | null> {
  const match = CREDENTIAL.exec(credential);
  if (!match) return null;
  const [, tokenId, expiresText, signature] = match;
  const expires = Number(expiresText);
  if (expires < deps.clock.now().getTime()) return null;
  const [row] = await deps.db
    .select({ tokenHash: exhibitTokens.tokenHash })
    .from(exhibitTokens)
    .where(and(eq(exhibitTokens.id, tokenId!), eq(exhibitTokens.exhibitId, exhibitId)));
  if (!row) return null;
  const expected = Buffer.from(sign(row.tokenHash, exhibitId, tokenId!, expires), 'hex');
  const given = Buffer.from(signature!, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given) ? tokenId! : null;
}

function sign(tokenHash: string, exhibitId: string, tokenId: string, expires: number): string {
  return createHmac('sha256', tokenHash).update(`${exhibitId}.${tokenId}.${expires}`).digest('hex');
}
