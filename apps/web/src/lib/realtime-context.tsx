import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ServerMessage } from '@plinth/shared';
import { applyToCache, rereadAfterMissedEvents } from './realtime-cache';
import { RealtimeClient, type RealtimeListener, type RealtimeStatus } from './realtime';

const RealtimeContext = createContext<RealtimeClient | null>(null);

/** Opens the socket while signed in and keeps cached lists in step with live events. */
export function RealtimeProvider({ client, enabled, children }: { client: RealtimeClient; enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    client.connect();
    // The client hands out a frame's messages one by one in a row: they are gathered and written
    // to the cache together once the row ends (one pass over a list of 10,000, not one per event).
    let pending: ServerMessage[] = [];
    const stop = client.listen((message) => {
      if (!pending.length) {
        queueMicrotask(() => {
          const batch = pending;
          pending = [];
          applyToCache(queryClient, batch);
        });
      }
      pending.push(message);
    });
    const stopResync = client.onResync(() => rereadAfterMissedEvents(queryClient));
    // The session ended elsewhere: nothing cached is valid any more; sign in again.
    const stopSessionEnded = client.onSessionEnded(() => {
      queryClient.clear();
      window.location.assign(SESSION_ENDED_PATH);
    });
    return () => {
      stop();
      stopResync();
      stopSessionEnded();
      client.disconnect();
    };
  }, [client, enabled, queryClient]);
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

const NO_IDS: string[] = [];

/** Subscribes to these ids while the calling screen is shown. */
export function useRealtimeSubscription(exhibitIds: string[], hardwareIds: string[] = NO_IDS): void {
  const client = useRealtime();
  // The subscription is made again only when the ids change. The key is made when a list object
  // changes, and not sorted: sorting a site's 10,000 board ids at each render was a seventh of a
  // busy board page's time (issue 17); the same ids in another order only subscribe again.
  const key = useMemo(() => `${exhibitIds.join(',')}|${hardwareIds.join(',')}`, [exhibitIds, hardwareIds]);
  useEffect(() => {
    if (!client || (!exhibitIds.length && !hardwareIds.length)) return;
    return client.subscribe({ exhibitIds, hardwareIds });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for both id lists
  }, [client, key]);
}

/** Whether live updates arrive (`live`), the socket is reconnecting, or the server's fan-out is degraded (`stale`). */
export function useRealtimeStatus(): RealtimeStatus {
  const client = useRealtime();
  const [status, setStatus] = useState<RealtimeStatus>(() => client?.status ?? 'live');
  useEffect(() => {
    if (!client) return;
    setStatus(client.status);
    return client.onStatusChange(setStatus);
  }, [client]);
  return client ? status : 'live';
}

/** Calls `listener` for every socket message while the calling component is mounted. */
export function useRealtimeListener(listener: RealtimeListener): void {
  const client = useRealtime();
  useEffect(() => {
    if (!client) return;
    return client.listen(listener);
  }, [client, listener]);
}

/** Where the console goes when the server ends the session: the login page says why. */
export const SESSION_ENDED_PATH = '/login?session=ended';
