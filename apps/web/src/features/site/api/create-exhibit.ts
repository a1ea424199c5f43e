import type { Exhibit } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { updateExhibit } from '../../../lib/api/update-exhibit';
import { withCreationError } from '../../../lib/creation-error';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateExhibitInput = { siteId: string; name: string; mqttPath: string };

/** POST /exhibit-management/exhibit. */
export const createExhibit = ({ siteId, name }: Omit<CreateExhibitInput, 'mqttPath'>) =>
  api.post<Exhibit>('/exhibit-management/exhibit', { name, siteId });

/** The create call answering the dialog's text when it fails (spec section 8). */
const createExhibitForDialog = withCreationError(createExhibit, 'Exhibit');

/**
 * Creates an exhibit, then sets its MQTT address when one was given (spec section 4; a failure
 * there is logged only, the exhibit exists). A failed creation answers the text the dialog shows.
 * Then the exhibit lists are read again.
 */
export function useCreateExhibit() {
  return useRefreshingMutation(async ({ siteId, name, mqttPath }: CreateExhibitInput) => {
    const exhibit = await createExhibitForDialog({ siteId, name });
    if (mqttPath) {
      await updateExhibit({ exhibitId: exhibit.id, data: { mqttPath } }).catch((e: unknown) => console.error('Setting the MQTT address failed', e));
    }
    return exhibit;
  }, () => [queryKeys.exhibits]);
}
