import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type FireControlInput = { exhibitId: string; controlId: string; itemId?: string };

/** POST /exhibit-management/exhibit/{id}/control/{controlId}: `itemId` names a button of a group; 409 ExhibitOffline when it cannot be delivered. */
export const fireControl = ({ exhibitId, controlId, itemId }: FireControlInput) =>
  api.post<{ delivered: true }>(`/exhibit-management/exhibit/${exhibitId}/control/${encodeURIComponent(controlId)}`, {}, { itemId });

/** Fires a control; the exhibit reacts through its own live events, so nothing cached changes. */
export function useFireControl() {
  return useMutation({ mutationFn: fireControl });
}
