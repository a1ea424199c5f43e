import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query';
import type { ManifestResponse } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { mergeManifestRead } from '../lib/settings-tree';

/** GET /exhibit-management/exhibit/{id}/manifest: the manifest with live values, the op mode (Off while offline), online and lock state. */
export const getExhibitManifest = (id: string) => api.get<ManifestResponse>(`/exhibit-management/exhibit/${id}/manifest`);

export const getExhibitManifestQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.exhibitManifest(id),
    queryFn: () => getExhibitManifest(id),
    // A read that crossed a live setting event keeps the newer state (see mergeManifestRead).
    structuralSharing: (held: unknown, read: unknown) => {
      const previous = held as ManifestResponse | undefined;
      const next = read as ManifestResponse;
      return replaceEqualDeep(previous, { ...next, manifest: mergeManifestRead(previous?.manifest, next.manifest) });
    },
  });

/** The overview, controls and settings tabs; live events patch it (`useExhibitLiveManifest`). */
export function useExhibitManifest(id: string | undefined) {
  return useQuery({ ...getExhibitManifestQueryOptions(id ?? ''), enabled: Boolean(id) });
}
