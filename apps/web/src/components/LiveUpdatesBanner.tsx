import { Alert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useRealtimeStatus } from '../lib/realtime-context';

/** How long live updates may be down before the banner shows (a reconnect usually takes less). */
export const LIVE_BANNER_DELAY_MS = 3000;

export const LIVE_BANNER_TEXTS = {
  reconnecting: 'Live updates are paused while the console reconnects to Plinth. What you see may be out of date; it is read again once they are back.',
  stale: 'Live updates may be missing: the server lost its link to the other Plinth servers. What you see may be out of date; it is read again once the link is back.',
} as const;

/**
 * Says when what the console shows may be stale: the socket is reconnecting, or the server's
 * event fan-out is degraded (`realtime.status`). Shown after a short grace, gone when live again.
 */
export function LiveUpdatesBanner() {
  const status = useRealtimeStatus();
  const [shown, setShown] = useState<'reconnecting' | 'stale' | null>(null);
  useEffect(() => {
    if (status === 'live') {
      setShown(null);
      return;
    }
    const timer = setTimeout(() => setShown(status), LIVE_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status]);
  if (!shown) return null;
  return (
    <Alert color="yellow" variant="light" role="status" mb="md" title="Live updates interrupted">
      {LIVE_BANNER_TEXTS[shown]}
    </Alert>
  );
}
