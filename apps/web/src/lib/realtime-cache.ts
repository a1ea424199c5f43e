import type { QueryClient } from '@tanstack/react-query';
import type { Exhibit, Hardware, ServerMessage } from '@plinth/shared';
import { forgetHardwareStatuses, recordHardwareStatuses, type HardwareStatus } from './hardware-live-status';
import { queryKeys } from './query-keys';

type ExhibitPatch = Partial<Pick<Exhibit, 'online' | 'opMode' | 'op_mode' | 'lastOnlineChange'>>;
type HardwarePatch = Partial<Hardware>;

/** Writes the patches of many exhibits (and of the followers lists that show them): one pass over each cached list. */
function patchExhibits(queryClient: QueryClient, patches: Map<string, ExhibitPatch>): void {
  const followerPatch = (patch: ExhibitPatch) => ({ ...(patch.online !== undefined ? { online: patch.online } : {}), ...(patch.opMode ? { opMode: patch.opMode } : {}) });
  const apply = (e: Exhibit): Exhibit => {
    const own = patches.get(e.id);
    const patched = own ? { ...e, ...own } : e;
    if (!e.followers.some((f) => patches.has(f.id))) return patched;
    return { ...patched, followers: e.followers.map((f) => (patches.has(f.id) ? { ...f, ...followerPatch(patches.get(f.id)!) } : f)) };
  };
  queryClient.setQueriesData<{ exhibits: Exhibit[] }>({ queryKey: queryKeys.exhibits }, (data) => {
    if (!data) return data;
    const exhibits = data.exhibits.map(apply);
    return exhibits.some((e, n) => e !== data.exhibits[n]) ? { ...data, exhibits } : data;
  });
  for (const id of patches.keys()) queryClient.setQueryData<Exhibit>(queryKeys.exhibit(id), (data) => (data ? apply(data) : data));
}

/** Writes the patches of many hardware units: one pass over each cached list, whatever their number. */
function patchHardware(queryClient: QueryClient, patches: Map<string, HardwarePatch>): void {
  queryClient.setQueriesData<{ hardware: Hardware[] }>({ queryKey: queryKeys.hardwareLists }, (data) => {
    if (!data || !data.hardware.some((h) => patches.has(h.id))) return data;
    return { ...data, hardware: data.hardware.map((h) => (patches.has(h.id) ? { ...h, ...patches.get(h.id) } : h)) };
  });
  for (const [id, patch] of patches) queryClient.setQueryData<Hardware>(queryKeys.hardware(id), (data) => (data ? { ...data, ...patch } : data));
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

/** What a live event changes in an exhibit's record, if it is a change of one. */
function exhibitPatchOf(message: ServerMessage): { id: string; patch: ExhibitPatch } | null {
  switch (message.type) {
    case 'exhibit.presenceChanged':
      return {
        id: message.exhibitId,
        patch: { online: message.online, lastOnlineChange: message.lastOnlineChange, ...(message.online ? {} : { opMode: 'Off', op_mode: false }) },
      };
    case 'exhibit.opModeChanged':
      return { id: message.exhibitId, patch: { opMode: message.opMode, op_mode: message.opMode === 'On' } };
    default:
      return null;
  }
}

/** What a live event changes in a hardware unit's record, if it is a change of one. */
function hardwarePatchOf(message: ServerMessage): { id: string; patch: HardwarePatch } | null {
  switch (message.type) {
    case 'hardware.presenceChanged':
      return { id: message.hardwareId, patch: { online: message.online } };
    case 'hardware.debugChanged':
      return { id: message.hardwareId, patch: { controlDebug: message.controlDebug } };
    default:
      return null;
  }
}

/**
 * Live events update every cached list and record they touch (spec section 4). A batch (the
 * events of one animation frame) is written with one pass over each cached list, later events of
 * a unit over earlier ones. Heartbeats (`hardware.statusChanged`, 625 a second on a site of 10,000
 * boards) are written to the hardware's own record and to the heartbeat store that list cards
 * read (hardware-live-status.ts), not into the lists: copying a list of 10,000 at every frame was
 * the cost (issue 17).
 */
export function applyToCache(queryClient: QueryClient, messages: ServerMessage | ServerMessage[]): void {
  const exhibitPatches = new Map<string, ExhibitPatch>();
  const hardwarePatches = new Map<string, HardwarePatch>();
  const heartbeats = new Map<string, HardwareStatus>();
  for (const message of Array.isArray(messages) ? messages : [messages]) {
    if (message.type === 'hardware.statusChanged') {
      const { voltage, temp, exhibitState, uptime, exhibitIP, updatedAt } = message;
      heartbeats.set(message.hardwareId, { voltage, temp, exhibitState, uptime, exhibitIP, updatedAt });
      continue;
    }
    const exhibit = exhibitPatchOf(message);
    if (exhibit) {
      exhibitPatches.set(exhibit.id, { ...exhibitPatches.get(exhibit.id), ...exhibit.patch });
      continue;
    }
    const hardware = hardwarePatchOf(message);
    if (hardware) {
      hardwarePatches.set(hardware.id, { ...hardwarePatches.get(hardware.id), ...hardware.patch });
      continue;
    }
    if (message.type === 'access.changed') {
      // The user's roles changed: lists, roles and rights shown are read again.
      void queryClient.invalidateQueries();
    } else if (message.type === 'exhibit.fileUploaded' || message.type === 'exhibit.fileDeleted') {
      invalidateExhibitFiles(queryClient, message.exhibitId);
    }
  }
  if (exhibitPatches.size) patchExhibits(queryClient, exhibitPatches);
  if (hardwarePatches.size) patchHardware(queryClient, hardwarePatches);
  if (heartbeats.size) {
    for (const [id, status] of heartbeats) queryClient.setQueryData<Hardware>(queryKeys.hardware(id), (data) => (data ? { ...data, ...status } : data));
    recordHardwareStatuses(heartbeats);
  }
}

/**
 * Live updates are back after events may have been missed (the socket reconnected, or the
 * server's link to the other nodes returned): every cached read is read again.
 */
export function rereadAfterMissedEvents(queryClient: QueryClient): void {
  forgetHardwareStatuses();
  void queryClient.invalidateQueries();
}

