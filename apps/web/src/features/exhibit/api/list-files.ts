import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ContentFiles } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type ExhibitFilesInput = { exhibitId: string; siteId: string };

/**
 * GET /content/files/ls?exhibitId&siteId: the exhibit's files (its leader's, for a follower) and
 * the organization's ('[ORG]' names); `errors` says why the organizational ones could not be read.
 */
export const listFiles = ({ exhibitId, siteId }: ExhibitFilesInput) => api.get<ContentFiles>('/content/files/ls', { exhibitId, siteId });

export const listFilesQueryOptions = (input: ExhibitFilesInput) =>
  queryOptions({ queryKey: queryKeys.exhibitFiles(input.exhibitId), queryFn: () => listFiles(input) });

/** The Files tab's table and the FileSelection settings' choices; live file events read it again. */
export function useExhibitFiles(input: Partial<ExhibitFilesInput>) {
  const { exhibitId = '', siteId = '' } = input;
  return useQuery({ ...listFilesQueryOptions({ exhibitId, siteId }), enabled: Boolean(exhibitId && siteId) });
}
