import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Setting } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /org-management/site/setting/{siteId}: the site's settings with those it inherits from its organization. */
export const getSiteSettings = (siteId: string) => api.get<{ siteSettings: Setting[] }>(`/org-management/site/setting/${siteId}`);

export const getSiteSettingsQueryOptions = (siteId: string) =>
  queryOptions({ queryKey: queryKeys.siteSettings(siteId), queryFn: () => getSiteSettings(siteId) });

/** Read once the site itself has loaded (a site the user may not read has no settings to show). */
export function useSiteSettings(siteId: string | undefined) {
  return useQuery({ ...getSiteSettingsQueryOptions(siteId ?? ''), enabled: Boolean(siteId) });
}
