import { useMutation } from '@tanstack/react-query';
import { analytics } from '../../../lib/analytics';
import { api } from '../../../lib/api-client';
import type { RealtimeClient } from '../../../lib/realtime';

/** POST /auth/logout: the server deletes the session and clears the cookie. */
export const logout = () => api.post<{ ok: true }>('/auth/logout');

/**
 * Signs out: the socket is closed first (the server ends the session's sockets, and this tab
 * must not read that as its session ending elsewhere), the server deletes the session and clears
 * the cookie, then local and session storage are cleared, analytics forgets the user, and the
 * browser reloads on /login.
 */
export async function signOut(realtime: RealtimeClient | null): Promise<void> {
  realtime?.disconnect();
  try {
    await logout();
  } catch {
    // Reloading on /login still drops the signed-in state; the cookie expires on its own.
  }
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // Storage can be unavailable (private mode); there is nothing to clear then.
  }
  analytics.reset();
  window.location.assign('/login');
}

/** The profile menu's Logout; the page reloads, so there is no cache to update. */
export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
