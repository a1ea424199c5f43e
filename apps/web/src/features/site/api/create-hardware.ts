import type { Hardware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { withCreationError } from '../../../lib/creation-error';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateHardwareInput = { siteId: string; name: string };

/** POST /hardware-mgmt/hardware. */
export const createHardware = ({ siteId, name }: CreateHardwareInput) => api.post<Hardware>('/hardware-mgmt/hardware', { name, siteId });

/** Creates a hardware unit; a failure answers the text the dialog shows. Creating hardware reloads the site's hardware (spec section 4). */
export function useCreateHardware() {
  return useRefreshingMutation(withCreationError(createHardware, 'Hardware'), ({ siteId }) => [queryKeys.hardwareBySite(siteId)]);
}
