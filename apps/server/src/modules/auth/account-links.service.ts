import { and, eq, isNull } from 'drizzle-orm';
import { CREATE_ACCOUNT_LINK_TTL_MS, RESET_LINK_TTL_MS } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { accountLinks } from '../../db/schema.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';

export type LinkKind = (typeof accountLinks.$inferSelect)['kind'];
export type AccountLinkRow = typeof accountLinks.$inferSelect;

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
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(accountLinks)
      .where(
        and(
          eq(accountLinks.kind, kind),
          userId ? eq(accountLinks.userId, userId) : isNull(accountLinks.userId),
          isNull(accountLinks.usedAt),
        ),
      );
    await tx.insert(accountLinks).values({
      userId,
      kind,
      tokenHash: hashSecret(secret),
      expiresAt: new Date(deps.clock.now().getTime() + TTL[kind]),
    });
  });
  return `${deps.config.publicUrl}${PAGE[kind]}?id=${encodeURIComponent(secret)}`;
}

/** The link behind an id when it is unused and unexpired, else null. */
export async function findLiveLink(deps: AppDeps, secret: string): Promise<AccountLinkRow | null> {
  const [row] = await deps.db.select().from(accountLinks).where(eq(accountLinks.tokenHash, hashSecret(secret)));
  if (!row || row.usedAt || row.expiresAt <= deps.clock.now()) return null;
  return row;
}

/** Marks the link used; false when another request used it first. */
export async function consumeLink(deps: AppDeps, linkId: string): Promise<boolean> {
  const rows = await deps.db
    .update(accountLinks)
    .set({ usedAt: deps.clock.now() })
    .where(and(eq(accountLinks.id, linkId), isNull(accountLinks.usedAt)))
    .returning({ id: accountLinks.id });
  return rows.length === 1;
}
