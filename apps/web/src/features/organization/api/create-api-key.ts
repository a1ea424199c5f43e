import type { CreateApiKeyInput, CreatedApiKey } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateApiKeyVariables = { organizationId: string; key: CreateApiKeyInput };

/** POST /org-management/organization/{id}/api-keys: answers the key's value, the only time it is ever shown. */
export const createApiKey = ({ organizationId, key }: CreateApiKeyVariables) =>
  api.post<CreatedApiKey>(`/org-management/organization/${organizationId}/api-keys`, key);

/** Creates a key and reads the list again. */
export function useCreateApiKey() {
  return useRefreshingMutation(createApiKey, ({ organizationId }) => [queryKeys.organizationApiKeys(organizationId)]);
}
