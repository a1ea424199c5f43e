import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Asks before leaving while `active` (a settings form of the screen has unsaved edits; the
 * exhibit, site and organization screens use it with UnsavedChangesDialog). The console runs on a
 * plain router with no navigation blocker, so this catches what leaves: clicks on in-app links
 * anywhere on the page (caught before the router sees them), the screen's own navigation calls
 * (through `guard`), and closing or reloading the tab (the browser's own prompt).
 */
export function useLeaveGuard(active: boolean) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<(() => void) | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  const location = useLocation();
  const hereRef = useRef('');
  hereRef.current = `${location.pathname}${location.search}${location.hash}`;

  /** Runs `proceed` now, or after the user confirms when there are unsaved edits. */
  const guard = useCallback((proceed: () => void) => {
    if (!activeRef.current) proceed();
    else setPending(() => proceed);
  }, []);

  useEffect(() => {
    if (!active) return;
    const handleClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement) || anchor.target === '_blank') return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const to = `${url.pathname}${url.search}${url.hash}`;
      if (to === hereRef.current) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(() => () => navigate(to));
    };
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    document.addEventListener('click', handleClick, true);
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => {
      document.removeEventListener('click', handleClick, true);
      window.removeEventListener('beforeunload', handleBeforeUnload);
    };
  }, [active, navigate]);

  return {
    guard,
    /** The prompt is open. */
    isPrompting: pending !== null,
    cancel: () => setPending(null),
    proceed: () => {
      const run = pending;
      setPending(null);
      run?.();
    },
  };
}
