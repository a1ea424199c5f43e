import { useMutation } from '@tanstack/react-query';
import type { TwoFactorSetup } from '@plinth/shared';
import { api } from '../../../lib/api-client';

/** POST /auth/two-factor/setup: a new secret and its QR code (not on until a code confirms it). */
export const setupTwoFactor = () => api.post<TwoFactorSetup>('/auth/two-factor/setup');

/** Starts a set-up; the state does not change until it is confirmed, so nothing is refreshed. */
export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
