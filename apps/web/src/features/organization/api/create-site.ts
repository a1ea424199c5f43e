import type { Site } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { withCreationError } from '../../../lib/creation-error';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateSiteInput = { organizationId: string; name: string };

/** POST /org-management/site (organization managers). */
export const createSite = ({ organizationId, name }: CreateSiteInput) => api.post<Site>('/org-management/site', { name, organizationId });

/**
 * Creates a site; a failure answers the text the dialog shows (spec section 8). Creating a site
 * reloads the sites and the hardware (spec section 4).
 */
export function useCreateSite() {
  return useRefreshingMutation(withCreationError(createSite, 'Site'), ({ organizationId }) => [
    queryKeys.organizationSites(organizationId),
    queryKeys.organization(organizationId),
    queryKeys.sites,
    queryKeys.hardwareLists,
  ]);
}
