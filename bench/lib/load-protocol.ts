import type { ManifestInput } from '@plinth/shared';

/** One exhibit a load generator connects: its id, a token, and its rank among all exhibits. */
export type LoadExhibit = { id: string; token: string; index: number };

/** What the benchmark tells a load-generator process (over the fork IPC channel). */
export type ToGenerator =
  /** Connect these exhibits, `perSecond` new connections a second. */
  | { type: 'connect'; serverUrl: string; exhibits: LoadExhibit[]; perSecond: number; manifest: ManifestInput }
  /**
   * Send a status from every exhibit every `intervalMs`, from `startAt` (epoch ms) for
   * `durationMs`; exhibit k of `total` sends first at startAt + k/total × interval (spread evenly).
   */
  | { type: 'send'; statusId: string; startAt: number; intervalMs: number; durationMs: number; total: number }
  /** Close every exhibit and exit. */
  | { type: 'close' };

/** What a load generator reports back. */
export type FromGenerator =
  | { type: 'progress'; ready: number; failed: number; disconnects: number; reconnects: number; errors: string[] }
  /** The send phase is over: statuses sent on a live socket, and those that had to wait (offline). */
  | { type: 'sent'; sent: number; sentOffline: number }
  | { type: 'closed' };
