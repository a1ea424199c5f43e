import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { errorStatus } from './api-client';

/** The part of a query (or of several) that says whether reading failed. */
export type LoadState = { isError: boolean; error: Error | null };

export type LoadFailureRedirect = {
  /** Logged with the error before leaving. */
  message: string;
  /** Where to go for the answer's HTTP status (null when the server was not reached), or null to stay. */
  redirectTo: (status: number | null) => string | null;
  /** The screen is already leaving (its item was just deleted): its reads now fail with 404, and that is expected. */
  isLeaving?: boolean;
};

/**
 * Sends the user away from a screen whose data cannot be read (spec section 4: an organization
 * load failure goes home, an exhibit 403 to the forbidden page, and so on), logging the error.
 */
export function useLoadFailureRedirect({ isError, error }: LoadState, { message, redirectTo, isLeaving = false }: LoadFailureRedirect): void {
  const navigate = useNavigate();
  const target = isError && !isLeaving ? redirectTo(errorStatus(error)) : null;
  useEffect(() => {
    if (target === null) return;
    console.error(message, error);
    navigate(target, { replace: true });
  }, [target, error, message, navigate]);
}
