import { normalizeEmail, type ExhibitMember, type LowerRole } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type CreateExhibitUserInput = {
  exhibitId: string;
  email: string;
  role: LowerRole;
};

/** POST /exhibit-management/permission: gives a person (by email, lowercased) a role on the exhibit. */
export const createExhibitUser = ({ exhibitId, email, role }: CreateExhibitUserInput) =>
  api.post<ExhibitMember>('/exhibit-management/permission', {
    exhibitId,
    email: normalizeEmail(email),
    role,
  });

/** Adds a user; the exhibit's people are read again. */
export function useCreateExhibitUser() {
  return useRefreshingMutation(createExhibitUser, ({ exhibitId }) => [queryKeys.exhibitPeople(exhibitId)]);
}
