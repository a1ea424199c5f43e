import { queryOptions } from '@tanstack/react-query';
import type { LoginMethod } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /auth/login-methods: the sign-in methods this server offers. */
export const getLoginMethods = () => api.get<{ methods: LoginMethod[] }>('/auth/login-methods');

/** Not retried: a failure shows the email and password form at once (`useLoginMethods`). */
export const getLoginMethodsQueryOptions = () => queryOptions({ queryKey: queryKeys.loginMethods, queryFn: getLoginMethods, retry: false });
