import type { ApiKey } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type RevokeApiKeyVariables = { organizationId: string; keyId: string };

/** DELETE /org-management/api-keys/{id}: the key stops working at once, on every server node. */
export const revokeApiKey = ({ keyId }: RevokeApiKeyVariables) => api.delete<ApiKey>(`/org-management/api-keys/${keyId}`);

/** Revokes a key and reads the list again. */
export function useRevokeApiKey() {
  return useRefreshingMutation(revokeApiKey, ({ organizationId }) => [queryKeys.organizationApiKeys(organizationId)]);
}
