import type { Organization } from '@plinth/shared';
import { api, ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export const CREATE_ORGANIZATION_FAILED = 'Error: Could not create Organization';

/** POST /org-management/organization (platform admins). */
export const createOrganization = (name: string) => api.post<Organization>('/org-management/organization', { name });

/**
 * Creates an organization. A taken name answers the catalogue text ('Organization name already
 * taken.'); an answer without a server message (a proxy error page, say) becomes the spec's
 * generic text. The mutation ends once the organization list has been read again.
 */
export function useCreateOrganization() {
  return useRefreshingMutation(
    (name: string) =>
      createOrganization(name).catch((error: unknown) => {
        throw error instanceof ApiError && error.response === undefined && error.status !== 0 ? new Error(CREATE_ORGANIZATION_FAILED) : error;
      }),
    () => [queryKeys.organizations],
  );
}
