import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ChangePasswordBody, isPasswordValid } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The reset form: a password holding every rule of the checklist (spec section 5). */
export const changePasswordInputSchema = z.object({ password: ChangePasswordBody.shape.password.refine(isPasswordValid) });

export type ChangePasswordInput = { resetUrlId: string; password: string };

/** POST /auth/user/change-password: sets the new password; the link is used up. */
export const changePassword = ({ resetUrlId, password }: ChangePasswordInput) =>
  api.post<{ ok: true }>('/auth/user/change-password', { resetUrlId, password });

/** Changes the password; the link's check is dropped, as the link no longer works. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (_data, { resetUrlId }) => queryClient.removeQueries({ queryKey: queryKeys.accountLink(resetUrlId) }),
  });
}
