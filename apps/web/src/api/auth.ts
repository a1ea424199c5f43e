import { useQuery } from '@tanstack/react-query';
import type { CurrentUser, LoginMethod } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

export type PublicConfig = { supportEmail: string; analyticsUrl: string | null; mqttPort: number; reportUrlPrefix: string };

export const getCurrentUser = () => api.get<CurrentUser>('/auth');
export const getLoginMethods = () => api.get<{ methods: LoginMethod[] }>('/auth/login-methods');
export const login = (email: string, password: string) =>
  api.post<CurrentUser>('/auth/user/login', { email: email.trim().toLowerCase(), password });
export const logout = () => api.post<{ ok: true }>('/auth/logout');
export const requestPasswordReset = (email: string) =>
  api.post<{ ok: true }>('/auth/user/reset-password', { email: email.trim().toLowerCase() });
export const checkResetLink = (resetUrlId: string) =>
  api.post<{ valid: true; kind: 'reset_password' | 'create_account' | 'setup'; email: string | null }>(
    '/auth/user/check-reset-password',
    { resetUrlId },
  );
export const changePassword = (resetUrlId: string, password: string) =>
  api.post<{ ok: true }>('/auth/user/change-password', { resetUrlId, password });
export const createAccount = (body: {
  firstName: string;
  lastName: string;
  password: string;
  resetUrlId: string;
  email?: string;
}) => api.post<{ ok: true }>('/auth/user/generic', body);
export const submitTicket = (subject: string, description: string) =>
  api.post<{ ok: true }>('/support/ticket', { subject, description });
export const getPublicConfig = () => api.get<PublicConfig>('/config');

/** The signed-in user; an error (401) means signed out. */
export function useCurrentUser() {
  return useQuery({ queryKey: queryKeys.me, queryFn: getCurrentUser, retry: false, staleTime: Infinity });
}

export function usePublicConfig() {
  return useQuery({ queryKey: queryKeys.config, queryFn: getPublicConfig, staleTime: Infinity });
}
