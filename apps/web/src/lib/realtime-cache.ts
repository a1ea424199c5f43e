import type { QueryClient } from '@tanstack/react-query';
import type { Exhibit, Hardware, ServerMessage } from '@plinth/shared';
import { queryKeys } from './query-keys';

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
  queryClient.setQueriesData<{ exhibits: Exhibit[] }>({ queryKey: queryKeys.exhibits }, (data) =>
    data ? { ...data, exhibits: data.exhibits.map(apply) } : data,
  );
  queryClient.setQueryData<Exhibit>(queryKeys.exhibit(id), (data) => (data ? apply(data) : data));
}

function patchHardware(queryClient: QueryClient, id: string, patch: HardwarePatch): void {
  queryClient.setQueriesData<{ hardware: Hardware[] }>({ queryKey: queryKeys.hardwareLists }, (data) =>
    data ? { ...data, hardware: data.hardware.map((h) => (h.id === id ? { ...h, ...patch } : h)) } : data,
  );
  queryClient.setQueryData<Hardware>(queryKeys.hardware(id), (data) => (data ? { ...data, ...patch } : data));
}

/**
 * A file of this exhibit changed: its file list is read again, and so are those of its followers
 * that this console knows of (a follower shows its leader's files).
 */
function invalidateExhibitFiles(queryClient: QueryClient, id: string): void {
  const ids = new Set([id]);
  const note = (e: Exhibit) => {
    if (e.leaderId === id) ids.add(e.id);
    if (e.id === id) for (const f of e.followers) ids.add(f.id);
  };
  for (const [, data] of queryClient.getQueriesData<{ exhibits: Exhibit[] }>({ queryKey: queryKeys.exhibits })) data?.exhibits?.forEach(note);
  for (const [, data] of queryClient.getQueriesData<Exhibit>({ queryKey: queryKeys.exhibitRecords })) if (data) note(data);
  for (const exhibitId of ids) void queryClient.invalidateQueries({ queryKey: queryKeys.exhibitFiles(exhibitId) });
}

/** Live events update every cached list and record they touch (spec section 4). */
export function applyToCache(queryClient: QueryClient, message: ServerMessage): void {
  switch (message.type) {
    case 'access.changed':
      // The user's roles changed: lists, roles and rights shown are read again.
      void queryClient.invalidateQueries();
      return;
    case 'exhibit.presenceChanged':
      patchExhibit(queryClient, message.exhibitId, {
        online: message.online,
        lastOnlineChange: message.lastOnlineChange,
        ...(message.online ? {} : { opMode: 'Off', op_mode: false }),
      });
      return;
    case 'exhibit.opModeChanged':
      patchExhibit(queryClient, message.exhibitId, { opMode: message.opMode, op_mode: message.opMode === 'On' });
      return;
    case 'exhibit.fileUploaded':
    case 'exhibit.fileDeleted':
      invalidateExhibitFiles(queryClient, message.exhibitId);
      return;
    case 'hardware.presenceChanged':
      patchHardware(queryClient, message.hardwareId, { online: message.online });
      return;
    case 'hardware.debugChanged':
      patchHardware(queryClient, message.hardwareId, { controlDebug: message.controlDebug });
      return;
    case 'hardware.statusChanged':
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

/**
 * Live updates are back after events may have been missed (the socket reconnected, or the
 * server's link to the other nodes returned): every cached read is read again.
 */
export function rereadAfterMissedEvents(queryClient: QueryClient): void {
  void queryClient.invalidateQueries();
}

