// The fork IPC messages between the hardware benchmark (hardware.bench.ts) and its board-fleet
// processes (hardware-fleet.ts), and the prop every benchmark message changes.

/** One board a fleet process connects: its hardware id and a live hardware token. */
export type FleetBoard = { id: string; token: string };

/** The prop whose value carries the send time (the simulator's text peripheral, max 32 characters). */
export const BENCH_PROP = { peripheralId: 'text1', propName: 'text' } as const;

/** What the benchmark tells a fleet process. */
export type ToFleet =
  /**
   * Connect these boards through the simulator library, `perSecond` new connections a second,
   * at most `inFlight` connecting at once; each heartbeats every `heartbeatMs`. A board not
   * connected and announced within `timeoutMs` (20 s when not given) counts as failed.
   */
  | { type: 'connect'; url: string; boards: FleetBoard[]; perSecond: number; inFlight: number; heartbeatMs: number; timeoutMs?: number }
  /**
   * Open loop: from `startAt` (epoch ms) for `durationMs`, change the bench prop `perSecond` times
   * a second in all, on the boards in turn; the value is the monotonic clock in ns
   * (process.hrtime, one clock for every process of the machine).
   */
  | { type: 'props'; startAt: number; durationMs: number; perSecond: number }
  /** Stop every board (each says goodbye) and exit. */
  | { type: 'close' };

/** What a fleet process reports back. */
export type FromFleet =
  | { type: 'progress'; ready: number; failed: number; connected: number; disconnects: number; reconnects: number; errors: string[] }
  /**
   * An open-loop phase is over: changes published, those skipped because their board was offline,
   * how late the fleet fell behind its schedule, and its own event-loop delay (p99, max, ms): a
   * stall here between stamping a value and writing it counts in the measured latency.
   */
  | { type: 'sent'; sent: number; skipped: number; lateMs: number; loopDelayP99Ms: number; loopDelayMaxMs: number }
  | { type: 'closed' };
