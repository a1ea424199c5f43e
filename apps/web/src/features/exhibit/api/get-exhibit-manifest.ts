import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ManifestResponse } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /exhibit-management/exhibit/{id}/manifest: the manifest with live values, the op mode (Off while offline), online and lock state. */
export const getExhibitManifest = (id: string) => api.get<ManifestResponse>(`/exhibit-management/exhibit/${id}/manifest`);

export const getExhibitManifestQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.exhibitManifest(id), queryFn: () => getExhibitManifest(id) });

/** The overview, controls and settings tabs; live events patch it (`useExhibitLiveManifest`). */
export function useExhibitManifest(id: string | undefined) {
  return useQuery({ ...getExhibitManifestQueryOptions(id ?? ''), enabled: Boolean(id) });
}
