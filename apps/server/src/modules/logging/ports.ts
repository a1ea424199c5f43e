import type { LogLevel } from '@plinth/shared';

/**
 * The log recorder as the rest of the server sees it (AppDeps `logs`): services, gateways and
 * presence code record what happened to an exhibit or a board through this type only, never
 * through the implementation (log-recorder.ts), so nothing that records depends on how lines are
 * stored or pushed live.
 */

/** What a log entry or report event is about. */
export type LogSource = 'exhibit' | 'hardware';

/** One line to record: a device's own line, or the server's record of what happened to it. */
export type LogRecord = {
  source: LogSource;
  /** The exhibit's or the board's id. */
  deviceId: string;
  level: LogLevel;
  /** The level for a device's own line; EXHIBIT_EVENT_TYPES / HARDWARE_EVENT_TYPES for the server's record. */
  eventType: string;
  /** Readable text or JSON text; never the value of a secret. */
  message: string;
  /** The device's own time for the line, when it says so (used when plausible, else arrival time). */
  at?: Date;
};

/** What `onRecord` calls with each line: the line as stored, with its time. */
export type RecordListener = (line: LogRecord & { at: Date }) => void;

/** One report event of an exhibit (the SDK's `event(name, data)`). */
export type ReportRecord = { exhibitId: string; name: string; data: unknown; at?: Date };

/** A live-log lease this node just took (`expiresAt`) or gave up (null). */
export type LeaseChange = { source: LogSource; deviceId: string; userId: string; expiresAt: Date | null };

export type LogRecorder = {
  /**
   * Records a line: published at once to the consoles of the device while a live-log lease for it
   * is unexpired, and stored with the next batch. Never waits and never throws.
   */
  record: (line: LogRecord) => void;
  /** Records a report event (stored with the next batch). */
  event: (event: ReportRecord) => void;
  /** This node took or gave up a lease: its own lines follow the change at once, before the next re-read. */
  leaseChanged: (change: LeaseChange) => void;
  /**
   * Calls `listener` with every line recorded from now on, right after it is taken (time and
   * storable text settled), on the node that records it; answers the function that stops it. A
   * listener must not throw or wait: what it does with a line runs on its own.
   */
  onRecord: (listener: RecordListener) => () => void;
  /** Stores everything waiting; settles once it is stored. */
  flush: () => Promise<void>;
  /** Stops re-reading leases and stores everything waiting (the server is stopping). */
  close: () => Promise<void>;
};
