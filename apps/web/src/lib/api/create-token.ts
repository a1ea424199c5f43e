import type { Token } from '@plinth/shared';
import { api } from '../api-client';
import { useRefreshingMutation } from '../use-refreshing-mutation';
import { tokensKey, type TokenOwner } from './list-tokens';

/** POST /auth/exhibit or /auth/hardware: creates a token; its value is answered this once only. */
export const createToken = ({ kind, id }: TokenOwner, name: string) =>
  api.post<Token & { token: string }>(`/auth/${kind}`, { name, [kind === 'exhibit' ? 'exhibitId' : 'hardwareId']: id });

/** Creates a token named `name`; the owner's token list is read again. */
export function useCreateToken(owner: TokenOwner) {
  return useRefreshingMutation((name: string) => createToken(owner, name), () => [tokensKey(owner)]);
}
