/**
 * What a dialog or form shows of the write it runs: busy while the mutation is pending, its error
 * once it failed. A TanStack `useMutation` result is one; a screen that logs a failure instead of
 * showing it (spec section 8) passes `{ isPending, error: null }`.
 */
export type MutationState = {
  isPending: boolean;
  error: Error | null;
  /** Clears the last outcome; dialogs call it when they open, so an old error does not show again. */
  reset?: () => void;
};

/** The text shown for a failed call: the error's own message, else the screen's fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
