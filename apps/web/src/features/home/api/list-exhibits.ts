import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Exhibit } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /exhibit-management/exhibit: every exhibit the caller sees; live events patch it in place. */
export const listExhibits = () => api.get<{ exhibits: Exhibit[] }>('/exhibit-management/exhibit');

export const listExhibitsQueryOptions = () => queryOptions({ queryKey: queryKeys.exhibits, queryFn: listExhibits });

export function useExhibits() {
  return useQuery(listExhibitsQueryOptions());
}
