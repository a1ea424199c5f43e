import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CreateAccountBody, isPasswordValid, normalizeEmail } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** An invitation's form: optional names (at most 100 characters) and a password holding every rule. */
export const createAccountInputSchema = CreateAccountBody.pick({ firstName: true, lastName: true }).extend({
  password: CreateAccountBody.shape.password.refine(isPasswordValid),
});

/** The first-admin setup link also asks for the email, which is then required. */
export const createSetupAccountInputSchema = createAccountInputSchema.extend({ email: z.string().trim().min(1) });

export type CreateAccountInput = { firstName: string; lastName: string; password: string; resetUrlId: string; email?: string };

/** POST /auth/user/generic: creates the account of an invitation or of the setup link. */
export const createAccount = ({ firstName, lastName, password, resetUrlId, email }: CreateAccountInput) =>
  api.post<{ ok: true }>('/auth/user/generic', {
    firstName: firstName.trim(),
    lastName: lastName.trim(),
    password,
    resetUrlId,
    ...(email === undefined ? {} : { email: normalizeEmail(email) }),
  });

/** Creates the account; the link's check is dropped, as the link no longer works. */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAccount,
    onSuccess: (_data, { resetUrlId }) => queryClient.removeQueries({ queryKey: queryKeys.accountLink(resetUrlId) }),
  });
}
