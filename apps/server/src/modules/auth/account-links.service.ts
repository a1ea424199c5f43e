import { CREATE_ACCOUNT_LINK_TTL_MS, RESET_LINK_TTL_MS } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import {
  findAccountLinkByHash,
  markAccountLinkUsed,
  replaceAccountLink,
  type AccountLinkRow,
  type LinkKind,
} from './account-links.repository.js';

const TTL: Record<LinkKind, number> = {
  reset_password: RESET_LINK_TTL_MS,
  create_account: CREATE_ACCOUNT_LINK_TTL_MS,
  setup: CREATE_ACCOUNT_LINK_TTL_MS,
};

const PAGE: Record<LinkKind, string> = {
  reset_password: '/reset-password',
  create_account: '/create-account',
  setup: '/create-account',
};

/**
 * Creates a one-use link and returns its full URL (starting with PUBLIC_URL). Older unused links
 * of the same kind for the same user stop working.
 */
export async function createAccountLink(deps: AppDeps, kind: LinkKind, userId: string | null): Promise<string> {
  const secret = newSecret();
  const expiresAt = new Date(deps.clock.now().getTime() + TTL[kind]);
  await replaceAccountLink(deps.db, { kind, userId, tokenHash: hashSecret(secret), expiresAt });
  return `${deps.config.publicUrl}${PAGE[kind]}?id=${encodeURIComponent(secret)}`;
}

/** The link behind an id when it is unused and unexpired, else null. */
export async function findLiveLink(deps: AppDeps, secret: string): Promise<AccountLinkRow | null> {
  const row = await findAccountLinkByHash(deps.db, hashSecret(secret));
  if (!row || row.usedAt || row.expiresAt <= deps.clock.now()) return null;
  return row;
}

/** Marks the link used; false when another request used it first. */
export async function consumeLink(deps: AppDeps, linkId: string): Promise<boolean> {
  return markAccountLinkUsed(deps.db, linkId, deps.clock.now());
}
