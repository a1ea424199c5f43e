import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Exhibit } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /exhibit-management/exhibit/{id}: the exhibit with its leader, followers and the caller's role. */
export const getExhibit = (id: string) => api.get<Exhibit>(`/exhibit-management/exhibit/${id}`);

export const getExhibitQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.exhibit(id), queryFn: () => getExhibit(id) });

/** The exhibit screen's record; live online and op-mode events patch it in place. */
export function useExhibit(id: string | undefined) {
  return useQuery({ ...getExhibitQueryOptions(id ?? ''), enabled: Boolean(id) });
}
