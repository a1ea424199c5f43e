import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { retryWhileDatabaseAway } from '../../lib/database-retry.js';
import { describeFailure } from '../../lib/describe-failure.js';
import { WriteBatcher } from '../../lib/write-batcher.js';
import { DAY_MS, utcDay } from './log-time.js';
import { ensureDayPartition, insertLogRows, insertReportRows, isMissingPartition, waitingLogRow, type LogRow, type LogTable, type ReportRow, type WaitingLogRow } from './log-store.repository.js';

/** How long rows gather before they are stored together, in ms. */
export const LOG_FLUSH_MS = 100;
/** Rows stored in one statement at most; this many waiting are stored at once. */
export const LOG_BATCH_ROWS = 2000;
/**
 * Rows waiting to be stored (in batches not yet written) past which new ones are dropped: a
 * database that cannot keep up must not take the process's memory with it.
 */
export const LOG_BACKLOG_ROWS = 200_000;
/** Dropped rows are reported at most this often (ms). */
const DROP_REPORT_MS = 60_000;

/**
 * The batching writer of the log store: log lines and report events, each into its day-partitioned
 * table, one multi-row INSERT per batch. The day partitions a batch needs are made when this
 * process has not yet seen them exist (a per-process cache; plinth_day_partition is safe on
 * several nodes at once). A failed batch is logged and dropped: losing a log batch must never
 * stop the device traffic that produced it.
 */
export class LogWriter {
  /** The day partitions known to exist, by table, as UTC day numbers (ms / DAY_MS: no string per row). */
  private readonly knownDays: Record<LogTable, Set<number>> = { log_entries: new Set(), report_events: new Set() };
  private readonly logs: WriteBatcher<WaitingLogRow>;
  private readonly reports: WriteBatcher<ReportRow>;
  /** Rows of each table added and not yet through a batch (stored or lost). */
  private readonly backlog: Record<LogTable, number> = { log_entries: 0, report_events: 0 };
  private dropped = 0;
  private droppedReportedAt = 0;

  constructor(
    private readonly deps: { db: Db; logger: Logger },
    options: { flushMs?: number; maxRows?: number } = {},
  ) {
    const flushMs = options.flushMs ?? LOG_FLUSH_MS;
    const maxRows = options.maxRows ?? LOG_BATCH_ROWS;
    const { logger } = deps;
    this.logs = new WriteBatcher<WaitingLogRow>({
      flushMs,
      maxWaiting: maxRows,
      retry: retryWhileDatabaseAway(logger, 'log lines'),
      store: (rows) => this.store('log_entries', rows, insertLogRows),
    });
    this.reports = new WriteBatcher<ReportRow>({
      flushMs,
      maxWaiting: maxRows,
      retry: retryWhileDatabaseAway(logger, 'report events'),
      store: (rows) => this.store('report_events', rows, insertReportRows),
    });
  }

  /** Queues a line in its waiting form (waitingLogRow): the line itself is the caller's. */
  addLog(row: LogRow): void {
    if (this.admit('log_entries')) this.logs.append(waitingLogRow(row));
  }

  addReport(row: ReportRow): void {
    if (this.admit('report_events')) this.reports.append(row);
  }

  /** Whether one more row of the table may wait: a database that cannot keep up must not take the process's memory with it. */
  private admit(table: LogTable): boolean {
    if (this.backlog[table] >= LOG_BACKLOG_ROWS) {
      this.countDrop();
      return false;
    }
    this.backlog[table] += 1;
    return true;
  }

  /** Stores everything waiting. */
  async flush(): Promise<void> {
    await Promise.all([this.logs.flush(), this.reports.flush()]);
  }

  /**
   * On close: stores everything waiting, held rows included, trying for at most `withinMs` while
   * the database is away; what could not be stored is logged with its counts.
   */
  async finish(withinMs: number): Promise<void> {
    const [logs, reports] = await Promise.all([this.logs.finish(withinMs), this.reports.finish(withinMs)]);
    if (logs || reports) this.deps.logger.error({ logs, reports }, `stopping without the database: ${logs} log lines and ${reports} report events could not be stored`);
  }

  /**
   * Stores one batch; a lost batch is logged, so the batches after it are stored too. A database
   * that cannot be reached is thrown: the batcher holds the rows (still counted in the backlog)
   * and tries again.
   */
  private async store<R extends { atMs: number }>(table: LogTable, rows: R[], insert: (db: Db, rows: R[]) => Promise<void>): Promise<void> {
    await this.storeOnce(table, rows, insert);
    this.backlog[table] -= rows.length;
  }

  private async storeOnce<R extends { atMs: number }>(table: LogTable, rows: R[], insert: (db: Db, rows: R[]) => Promise<void>): Promise<void> {
    try {
      await this.ensureDays(table, rows);
      await insert(this.deps.db, rows);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      if (!isMissingPartition(error)) return this.lose(table, rows, error);
      // A day this process knew was dropped meanwhile (by the retention job of another node, whose
      // clock runs ahead): make the days again, once.
      for (const row of rows) this.knownDays[table].delete(dayNumber(row.atMs));
      try {
        await this.ensureDays(table, rows);
        await insert(this.deps.db, rows);
      } catch (retryError) {
        if (isDatabaseUnavailable(retryError)) throw retryError;
        this.lose(table, rows, retryError);
      }
    }
  }

  private async ensureDays(table: LogTable, rows: { atMs: number }[]): Promise<void> {
    const known = this.knownDays[table];
    let missing: Set<number> | undefined;
    for (const row of rows) {
      const day = dayNumber(row.atMs);
      if (!known.has(day)) (missing ??= new Set()).add(day);
    }
    for (const day of missing ?? []) {
      await ensureDayPartition(this.deps.db, table, utcDay(new Date(day * DAY_MS)));
      known.add(day);
    }
  }

  private lose(table: LogTable, rows: unknown[], error: unknown): void {
    this.deps.logger.error({ failure: describeFailure(error), table, rows: rows.length }, 'storing a batch of logs failed; the batch is lost');
  }

  private countDrop(): void {
    this.dropped += 1;
    const now = Date.now();
    if (now - this.droppedReportedAt < DROP_REPORT_MS) return;
    this.deps.logger.warn({ dropped: this.dropped }, 'the database does not keep up with the logs: lines are dropped');
    this.droppedReportedAt = now;
    this.dropped = 0;
  }
}

/** The UTC day an instant (ms since the epoch) falls in, as a number of days since the epoch. */
const dayNumber = (atMs: number) => Math.floor(atMs / DAY_MS);
