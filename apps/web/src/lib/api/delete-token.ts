import { api } from '../api-client';
import { useRefreshingMutation } from '../use-refreshing-mutation';
import { tokensKey, type TokenOwner } from './list-tokens';

/** DELETE /auth/{exhibit|hardware}/delete-token/{tokenId}: devices using it are disconnected and refused from then on (managers). */
export const deleteToken = ({ kind }: TokenOwner, tokenId: string) => api.delete<{ ok: true }>(`/auth/${kind}/delete-token/${tokenId}`);

/** Deletes a token; the owner's token list is read again. */
export function useDeleteToken(owner: TokenOwner) {
  return useRefreshingMutation((tokenId: string) => deleteToken(owner, tokenId), () => [tokensKey(owner)]);
}
