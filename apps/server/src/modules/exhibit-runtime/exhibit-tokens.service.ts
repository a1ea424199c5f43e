import { createHmac, timingSafeEqual } from 'node:crypto';
import { EXHIBIT_CREDENTIAL_TTL_MS, type ExhibitCredential } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { recordExhibit } from '../logging/records.js';
import {
  deleteExhibitTokenRow,
  findExhibitTokenRow,
  findTokenByHash,
  findTokenHash,
  insertExhibitToken,
  listExhibitTokenRows,
  type ExhibitTokenRow,
} from './exhibit-tokens.repository.js';

/** Creates a token (`by`: who, an email); the value is answered once, only its hash is kept (and never logged). */
export async function createExhibitToken(
  deps: AppDeps,
  exhibitId: string,
  create: { name: string; by: string; audit: AuditContext },
): Promise<{ id: string; name: string; createdAt: string; token: string }> {
  const token = newSecret();
  const row = await insertExhibitToken(deps.db, { exhibitId, name: create.name, tokenHash: hashSecret(token) });
  recordExhibit(deps.logs, exhibitId, { eventType: 'token', message: `Token "${row.name}" created by ${create.by}` });
  const after = { name: row.name };
  await recordExhibitChange(deps, create.audit, { exhibitId, resource: 'exhibitToken', resourceId: row.id, action: 'create', after });
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), token };
}

export async function listExhibitTokens(deps: AppDeps, exhibitId: string): Promise<ExhibitTokenRow[]> {
  return listExhibitTokenRows(deps.db, exhibitId);
}

export async function findExhibitToken(deps: AppDeps, tokenId: string): Promise<ExhibitTokenRow | undefined> {
  return findExhibitTokenRow(deps.db, tokenId);
}

/** Deletes a token (`by`: who, an email) and disconnects the exhibits that authenticated with it. */
export async function deleteExhibitToken(deps: AppDeps, token: { id: string; name: string }, revoke: { by: string; audit: AuditContext }): Promise<void> {
  const { by } = revoke;
  const row = await deleteExhibitTokenRow(deps.db, token.id);
  if (!row) return;
  deps.exhibitGateway.disconnectToken(row.exhibitId, token.id);
  recordExhibit(deps.logs, row.exhibitId, { eventType: 'token', message: `Token "${token.name}" revoked by ${by}` });
  const before = { name: token.name };
  await recordExhibitChange(deps, revoke.audit, { exhibitId: row.exhibitId, resource: 'exhibitToken', resourceId: token.id, action: 'revoke', before });
}

/**
 * Trades an exhibit id and token for a short-lived credential that opens the socket. The
 * credential is signed with the token's stored hash, so it needs no state of its own and dies
 * with the token (any server node can check it). It lasts five minutes (the SDK trades its token
 * again to reconnect); issueExhibitCredential lets a caller choose (the Gumband cookie).
 */
export async function authenticateExhibit(deps: AppDeps, exhibitId: string, token: string): Promise<ExhibitCredential> {
  return issueExhibitCredential(deps, { exhibitId, token, ttlMs: EXHIBIT_CREDENTIAL_TTL_MS });
}

/** authenticateExhibit with a lifetime of the caller's choosing (`ttlMs`). */
export async function issueExhibitCredential(deps: AppDeps, request: { exhibitId: string; token: string; ttlMs: number }): Promise<ExhibitCredential> {
  const { exhibitId, token, ttlMs } = request;
  const row = await findTokenByHash(deps.db, exhibitId, hashSecret(token));
  if (!row) throw new AppError('Unauthorized', 'The exhibit id or token is not valid.');
  const expires = deps.clock.now().getTime() + ttlMs;
  const credential = `v1.${row.id}.${expires}.${sign(row.tokenHash, claimOf(exhibitId, row.id, expires))}`;
  return { exhibitId, credential, expiresAt: new Date(expires).toISOString() };
}

/**
 * Whether `token` is one of the exhibit's tokens (the exhibit's own calls with HTTP Basic auth,
 * e.g. its file downloads). Tokens are random secrets: a SHA-256 lookup, no slow hash per call.
 */
export async function verifyExhibitToken(deps: AppDeps, exhibitId: string, token: string): Promise<boolean> {
  return Boolean(await findTokenByHash(deps.db, exhibitId, hashSecret(token)));
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
  const tokenHash = await findTokenHash(deps.db, exhibitId, tokenId!);
  if (!tokenHash) return null;
  const expected = Buffer.from(sign(tokenHash, claimOf(exhibitId, tokenId!, expires)), 'hex');
  const given = Buffer.from(signature!, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given) ? tokenId! : null;
}

/** What a credential vouches for: this exhibit, through this token, until then. */
function claimOf(exhibitId: string, tokenId: string, expires: number): string {
  return `${exhibitId}.${tokenId}.${expires}`;
}

function sign(tokenHash: string, claim: string): string {
  return createHmac('sha256', tokenHash).update(claim).digest('hex');
}
