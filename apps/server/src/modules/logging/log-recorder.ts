import type { Logger } from 'pino';
import { storableText } from '@plinth/shared';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import { presentExhibitLogged } from '../exhibit-runtime/exhibit-events.presenter.js';
import { presentHardwareLogged } from '../hardware-runtime/hardware-events.presenter.js';
import { LiveLeases } from './live-leases.js';
import { lineTime } from './log-time.js';
import type { LogRow } from './log-store.repository.js';
import { LogWriter } from './log-writer.js';
import type { LogRecord, LogRecorder, RecordListener, ReportRecord } from './ports.js';

/** What the recorder needs of AppDeps. */
export type LogRecorderDeps = { config: Config; db: Db; hub: RealtimeHub; clock: Clock; logger: Logger };

/** A recorder and the start of its lease re-reads (the server starts them; the command line does not). */
export type RunningLogRecorder = LogRecorder & { start: () => void };

/**
 * The one log recorder of the process (ports.ts): each line gets its time (the device's when
 * plausible, else arrival), goes to the consoles at once while the device is leased for live
 * logs, and waits for the next batch of the writer. Nothing here awaits the database.
 */
export function createLogRecorder(deps: LogRecorderDeps, options: { flushMs?: number } = {}): RunningLogRecorder {
  const writer = new LogWriter(deps, options);
  const leases = new LiveLeases(deps);
  const retentionDays = deps.config.LOG_RETENTION_DAYS;
  const listeners = new Set<RecordListener>();

  const publish = (line: LogRecord, at: Date) => {
    const { deviceId, level, message, eventType } = line;
    if (line.source === 'exhibit') deps.hub.publish('exhibit', deviceId, presentExhibitLogged({ exhibitId: deviceId, level, message, eventType, at }));
    else deps.hub.publish('hardware', deviceId, presentHardwareLogged({ hardwareId: deviceId, level, message, eventType, at }));
  };

  return {
    start: () => leases.start(),
    record(line) {
      const now = deps.clock.now();
      // Never older than the retention (a device time that old is not believed): no line goes to a dropped day.
      const at = lineTime(line.at, now, retentionDays);
      // One object, of one shape, is what the consoles, the listeners and the writer get (a board's
      // prop changes each record a line: spreading it again for each was measurable); the writer
      // keeps its own smaller form of it until the batch is stored.
      const row: LogRow = { source: line.source, deviceId: line.deviceId, at, level: line.level, eventType: line.eventType, message: storableText(line.message) };
      if (leases.isLive(row.source, row.deviceId, now.getTime())) publish(row, at);
      writer.addLog(row);
      for (const listener of listeners) {
        try {
          listener(row);
        } catch (error) {
          // A listener's bug must not cost the line or the caller (record never throws).
          deps.logger.error({ err: error }, 'a log record listener failed');
        }
      }
    },
    onRecord(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    event(event: ReportRecord) {
      const now = deps.clock.now();
      const at = lineTime(event.at, now, retentionDays);
      const value = reportValue(event.data);
      writer.addReport({ source: 'exhibit', deviceId: event.exhibitId, atMs: at.getTime(), name: storableText(event.name), value: value === null ? null : storableText(value) });
    },
    leaseChanged: (change) => leases.change(change),
    flush: () => writer.flush(),
    async close() {
      await leases.stop();
      // Rows held through a database outage get a few more seconds, then are reported with counts.
      await writer.finish(3000);
    },
  };
}

/**
 * The value Events by Value groups by: the data itself when it is text, a number or a boolean,
 * else its `value` field as text (JSON text when that is not text itself), else none.
 */
export function reportValue(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (typeof data === 'number' || typeof data === 'boolean') return String(data);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('value' in data)) return null;
  const value = (data as { value: unknown }).value;
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
