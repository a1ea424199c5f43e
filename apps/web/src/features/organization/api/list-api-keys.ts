import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyList } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /org-management/organization/{id}/api-keys: the organization's keys, newest first (never their values). */
export const listApiKeys = (organizationId: string) => api.get<ApiKeyList>(`/org-management/organization/${organizationId}/api-keys`);

export const listApiKeysQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: queryKeys.organizationApiKeys(organizationId), queryFn: () => listApiKeys(organizationId) });

/** The API keys tab's list. */
export function useApiKeys(organizationId: string) {
  return useQuery(listApiKeysQueryOptions(organizationId));
}
