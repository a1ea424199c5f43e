import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** What the server tells every console: where support is, analytics, the broker port, the report prefix, the upload limit. */
export type PublicConfig = { supportEmail: string; analyticsUrl: string | null; mqttPort: number; reportUrlPrefix: string; maxFileBytes: number };

/** GET /config. */
export const getPublicConfig = () => api.get<PublicConfig>('/config');

/** The configuration does not change while the server runs. */
export const getPublicConfigQueryOptions = () => queryOptions({ queryKey: queryKeys.config, queryFn: getPublicConfig, staleTime: Infinity });

export function usePublicConfig() {
  return useQuery(getPublicConfigQueryOptions());
}
