import type { UseQueryResult } from '@tanstack/react-query';
import type { ManifestResponse } from '@plinth/shared';
import { PageState } from '../../../components/PageState';

/**
 * What a tab built on the manifest shows until it has one: a loader while it is read, or the
 * failure with Retry when the read failed, so a failure never looks like an exhibit with nothing
 * declared. Null once the manifest is held (a failed background refresh keeps the held one).
 * `what` names the tab's content ("overview", "controls", "settings").
 */
export function ManifestPlaceholder({ manifest, what }: { manifest: UseQueryResult<ManifestResponse>; what: string }) {
  if (manifest.isPending) return <PageState kind="loading" label={`Loading ${what}`} />;
  if (manifest.data) return null;
  return (
    <PageState
      kind="error"
      label={`The ${what} of this exhibit could not be loaded.`}
      onRetry={() => void manifest.refetch()}
      isRetrying={manifest.isFetching}
    />
  );
}
