import type { LogLevel, OpMode } from '@plinth/shared';
import { presentOpModeChanged, presentSettingChanged, presentStatusChanged } from './exhibit-events.presenter.js';
import type { AppDeps } from '../../deps.js';
import { recordExhibit } from '../logging/records.js';
import { findStatus, updateOpMode, writeStatusValues, type StatusValueWrite } from './exhibit-runtime.repository.js';
import { acknowledgeListItem, acknowledgeSetting } from './exhibit-settings.repository.js';

/**
 * What the exhibit sends, as the gateway hands it over: status values, acknowledgements of
 * applied settings, its own op-mode switches, log lines and report events. (Its manifest goes
 * through manifest-ingest.service.ts.)
 */

/** An exhibit's statuses by manifest id (row id and type), kept by its connection. */
export type StatusCache = Map<string, { id: string; type: string }>;

/**
 * Who sent a status value: the exhibit, its connection's cache of status types, and where the
 * value is stored (the gateway's batched writes for a connection; at once for a single call).
 */
export type StatusSource = { exhibitId: string; statuses: StatusCache; store: (write: StatusValueWrite) => void | Promise<void> };

/** The source of a status value set by one call (not a connection): stored before it answers. */
export function statusSourceOfCall(deps: AppDeps, exhibitId: string): StatusSource {
  return { exhibitId, statuses: new Map(), store: (write) => writeStatusValues(deps.db, [write]) };
}

/** Fills the source's cache with the exhibit's statuses (after a manifest ingest): the first value of each needs no read. */
export function cacheStatuses(cache: StatusCache, statuses: { id: string; manifestId: string; type: string }[]): void {
  cache.clear();
  for (const status of statuses) cache.set(status.manifestId, { id: status.id, type: status.type });
}

/**
 * A status value from the exhibit; answers an error message when the status is unknown. The
 * value reaches consoles before it is stored, so a busy database never delays the live view;
 * the source's cache spares the lookup of the status's type on every value.
 */
export async function recordStatus(
  deps: AppDeps,
  source: StatusSource,
  message: { id: string; value: string | number | null },
): Promise<string | null> {
  const { exhibitId, statuses: cache } = source;
  const { id, value } = message;
  let status = cache.get(id);
  if (!status) {
    status = await findStatus(deps.db, exhibitId, id);
    if (!status) return `Unknown status "${id}": declare it in the manifest.`;
    cache.set(id, status);
  }
  if (value !== null && status.type === 'Integer' && (typeof value !== 'number' || !Number.isFinite(value))) return `Status "${id}" needs a number.`;
  if (value !== null && status.type !== 'Integer' && typeof value !== 'string') return `Status "${id}" needs text.`;
  deps.hub.publish('exhibit', exhibitId, presentStatusChanged({ exhibitId, statusId: id, value }));
  await source.store({ statusId: status.id, value, at: deps.clock.now() });
  return null;
}

/** The versions an exhibit says it applied (its `ack` message). */
export type Acknowledgement = {
  settings: { id: string; version: number }[];
  listItems: { listId: string; listName: string; version: number }[];
};

/** The exhibit applied these versions: consoles learn which saved values are now applied. */
export async function acknowledge(deps: AppDeps, exhibitId: string, ack: Acknowledgement): Promise<void> {
  for (const setting of ack.settings) {
    const row = await acknowledgeSetting(deps.db, exhibitId, setting);
    if (row && row.appliedVersion >= row.version) {
      deps.hub.publish('exhibit', exhibitId, presentSettingChanged({ exhibitId, settingId: setting.id, value: row.value, applied: true, version: row.version }));
      // Logged once per saved version: a reconnect acknowledges every setting again, and version 1
      // is the manifest's default, which a new exhibit applies for every setting at once.
      if (row.previousAppliedVersion < row.appliedVersion && row.appliedVersion > 1) {
        recordExhibit(deps.logs, exhibitId, { eventType: 'setting', message: `Setting "${setting.id}" applied by the exhibit (version ${row.appliedVersion})` });
      }
    }
  }
  let listTouched = false;
  for (const item of ack.listItems) {
    if (await acknowledgeListItem(deps.db, exhibitId, item)) listTouched = true;
  }
  if (listTouched) deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.manifestChanged', exhibitId });
}

/** The exhibit switched its own op mode: stored and published to consoles (not sent back). */
export async function recordOpMode(deps: AppDeps, exhibitId: string, mode: OpMode): Promise<void> {
  await updateOpMode(deps.db, exhibitId, mode);
  deps.hub.publish('exhibit', exhibitId, presentOpModeChanged({ exhibitId, opMode: mode }));
  recordExhibit(deps.logs, exhibitId, { eventType: 'opMode', message: `Op mode set to ${mode} by the exhibit` });
}

/**
 * Log lines from the exhibit (its `logger.*`, the event type is the level), in the order it sent
 * them: to the log recorder, which pushes them live while leased and stores them in batches. Each
 * line keeps the exhibit's own time when plausible, so lines queued offline keep theirs.
 */
export async function recordLogs(deps: AppDeps, exhibitId: string, entries: { level: LogLevel; message: string; timestamp: string }[]): Promise<void> {
  for (const entry of entries) {
    deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: entry.level, eventType: entry.level, message: entry.message, at: new Date(entry.timestamp) });
  }
}

/** A report event from the exhibit (its `event` message). */
export type ReportEvent = { name: string; data?: unknown; timestamp: string };

/** A report event from the exhibit, charted by the reports tab (stored in batches like log lines). */
export async function recordEvent(deps: AppDeps, exhibitId: string, event: ReportEvent): Promise<void> {
  deps.logs.event({ exhibitId, name: event.name, data: event.data ?? null, at: new Date(event.timestamp) });
}
