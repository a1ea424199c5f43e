import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Token } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** Whose tokens: an exhibit's (the SDK signs in with them) or a hardware unit's (its MQTT password). */
export type TokenOwner = { kind: 'exhibit' | 'hardware'; id: string };

/** The key of an owner's token list. */
export const tokensKey = ({ kind, id }: TokenOwner) => (kind === 'exhibit' ? queryKeys.exhibitTokens(id) : queryKeys.hardwareTokens(id));

/** GET /auth/exhibit/{id} or /auth/hardware/{id}: the owner's tokens (names and dates, never their values). */
export const listTokens = ({ kind, id }: TokenOwner) => api.get<{ tokens: Token[] }>(`/auth/${kind}/${id}`);

/** Always read afresh: the auth tab decides on the first answer whether to create a first token. */
export const listTokensQueryOptions = (owner: TokenOwner) => queryOptions({ queryKey: tokensKey(owner), queryFn: () => listTokens(owner), staleTime: 0 });

/** The auth tab's tokens; `enabled` false for a role that may not create tokens (the exhibit's tab does not read them then). */
export function useTokens(owner: TokenOwner, enabled = true) {
  return useQuery({ ...listTokensQueryOptions(owner), enabled: Boolean(owner.id) && enabled });
}
