import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { StrapiContentList } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type StrapiContentInput = { exhibitId: string; settingId: string };

/**
 * GET /org-management/organization/setting/strapi/content: one page (10 entries, by id) of the
 * content-manager entries a StrapiContent setting offers. A failure's `details.reason` says which
 * of the spec's messages it is ('noUrl', 'noJwt', 'options').
 */
export const listStrapiContent = ({ exhibitId, settingId }: StrapiContentInput, page: number) =>
  api.get<StrapiContentList>('/org-management/organization/setting/strapi/content', { exhibitId, settingId, page });

export const listStrapiContentQueryOptions = (input: StrapiContentInput) =>
  infiniteQueryOptions({
    queryKey: queryKeys.strapiContent(input.exhibitId, input.settingId),
    queryFn: ({ pageParam }) => listStrapiContent(input, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: StrapiContentList) => (last.page < last.pageCount ? last.page + 1 : undefined),
    // The server already waited for the content manager (5 s at most); its answer stands until asked again.
    retry: false,
  });

/** The entries loaded so far, page after page (`fetchNextPage` for the next ten). */
export function useStrapiContent(input: StrapiContentInput) {
  return useInfiniteQuery(listStrapiContentQueryOptions(input));
}
