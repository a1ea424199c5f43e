import { useCallback, useRef } from 'react';
import { CLICK_GUARD_MS } from '@plinth/shared';

/** Wraps a handler so that clicks within one second of the last one are ignored. */
export function useClickGuard<A extends unknown[]>(handler: (...args: A) => void, ms = CLICK_GUARD_MS) {
  const last = useRef(0);
  return useCallback(
    (...args: A) => {
      const now = Date.now();
      if (now - last.current < ms) return;
      last.current = now;
      handler(...args);
    },
    [handler, ms],
  );
}
