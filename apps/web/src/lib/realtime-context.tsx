import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Exhibit, Hardware, ServerMessage } from '@plinth/shared';
import { RealtimeClient, type RealtimeListener } from './realtime';

const RealtimeContext = createContext<RealtimeClient | null>(null);

/** Opens the socket while signed in and keeps cached lists in step with live events. */
export function RealtimeProvider({ client, enabled, children }: { client: RealtimeClient; enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    client.connect();
    const stop = client.listen((message) => applyToCache(queryClient, message));
    // The session ended elsewhere: nothing cached is valid any more; sign in again.
    const stopSessionEnded = client.onSessionEnded(() => {
      queryClient.clear();
      window.location.assign(SESSION_ENDED_PATH);
    });
    return () => {
      stop();
      stopSessionEnded();
      client.disconnect();
    };
  }, [client, enabled, queryClient]);
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

/** Subscribes to these ids while the calling screen is shown. */
export function useRealtimeSubscription(exhibitIds: string[], hardwareIds: string[] = []): void {
  const client = useRealtime();
  const key = `${[...exhibitIds].sort().join(',')}|${[...hardwareIds].sort().join(',')}`;
  useEffect(() => {
    if (!client || (!exhibitIds.length && !hardwareIds.length)) return;
    return client.subscribe({ exhibitIds, hardwareIds });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for both id lists
  }, [client, key]);
}

/** Calls `listener` for every socket message while the calling component is mounted. */
export function useRealtimeListener(listener: RealtimeListener): void {
  const client = useRealtime();
  useEffect(() => {
    if (!client) return;
    return client.listen(listener);
  }, [client, listener]);
}

type ExhibitPatch = Partial<Pick<Exhibit, 'online' | 'opMode' | 'op_mode' | 'lastOnlineChange'>>;
type HardwarePatch = Partial<Hardware>;

function patchExhibit(queryClient: QueryClient, id: string, patch: ExhibitPatch): void {
  const apply = (e: Exhibit): Exhibit => {
    if (e.id === id) return { ...e, ...patch };
    if (e.followers.some((f) => f.id === id)) {
      return {
        ...e,
        followers: e.followers.map((f) =>
          f.id === id ? { ...f, ...(patch.online !== undefined ? { online: patch.online } : {}), ...(patch.opMode ? { opMode: patch.opMode } : {}) } : f,
        ),
      };
    }
    return e;
  };
  queryClient.setQueriesData<{ exhibits: Exhibit[] }>({ queryKey: ['exhibits'] }, (data) =>
    data ? { ...data, exhibits: data.exhibits.map(apply) } : data,
  );
  queryClient.setQueryData<Exhibit>(['exhibit', id], (data) => (data ? apply(data) : data));
}

function patchHardware(queryClient: QueryClient, id: string, patch: HardwarePatch): void {
  queryClient.setQueriesData<{ hardware: Hardware[] }>({ queryKey: ['hardware-list'] }, (data) =>
    data ? { ...data, hardware: data.hardware.map((h) => (h.id === id ? { ...h, ...patch } : h)) } : data,
  );
  queryClient.setQueryData<Hardware>(['hardware', id], (data) => (data ? { ...data, ...patch } : data));
}

/** Where the console goes when the server ends the session: the login page says why. */
export const SESSION_ENDED_PATH = '/login?session=ended';

/** Live events update every cached list and record they touch (spec section 4). */
export function applyToCache(queryClient: QueryClient, message: ServerMessage): void {
  switch (message.type) {
    case 'access.changed':
      // The user's roles changed: lists, roles and rights shown are read again.
      void queryClient.invalidateQueries();
      return;
    case 'exhibit.online':
      patchExhibit(queryClient, message.exhibitId, {
        online: message.online,
        lastOnlineChange: message.lastOnlineChange,
        ...(message.online ? {} : { opMode: 'Off', op_mode: false }),
      });
      return;
    case 'exhibit.opMode':
      patchExhibit(queryClient, message.id, { opMode: message.mode, op_mode: message.mode === 'On' });
      return;
    case 'hardware.online':
      patchHardware(queryClient, message.hardwareId, { online: message.online });
      return;
    case 'hardware.debug':
      patchHardware(queryClient, message.id, { controlDebug: message.controlDebug });
      return;
    case 'hardware.status':
      patchHardware(queryClient, message.hardwareId, {
        voltage: message.voltage,
        temp: message.temp,
        exhibitState: message.exhibitState,
        uptime: message.uptime,
        exhibitIP: message.exhibitIP,
        updatedAt: message.updatedAt,
      });
      return;
    default:
      return;
  }
}
