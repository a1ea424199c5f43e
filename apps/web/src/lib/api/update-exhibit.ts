import type { Exhibit } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';
import { useRecordUpdate } from './record-update';

/** The fields of an exhibit the console changes, one or several per call. */
export type UpdateExhibitData = { name?: string; mqttPath?: string; leaderId?: string | null; manifestLocked?: boolean };

export type UpdateExhibitInput = { exhibitId: string; data: UpdateExhibitData };

/** PUT /exhibit-management/exhibit/{id}: answers the updated exhibit. */
export const updateExhibit = ({ exhibitId, data }: UpdateExhibitInput) => api.put<Exhibit>(`/exhibit-management/exhibit/${exhibitId}`, data);

/**
 * Renames an exhibit, sets its MQTT address or (un)locks its manifest. The answer replaces the
 * cached exhibit at once; the exhibit lists are read again in the background.
 */
export const useUpdateExhibit = () =>
  useRecordUpdate({ mutationFn: updateExhibit, recordKey: ({ exhibitId }) => queryKeys.exhibit(exhibitId), listsKey: queryKeys.exhibits });
