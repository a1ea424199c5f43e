import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { describeFailure } from '../../lib/describe-failure.js';
import { deleteExpiredLeases } from './live-log.repository.js';
import { dropDayPartition, listDayPartitions, withRetentionLock, type DayPartition } from './log-partitions.repository.js';
import { ensureDayPartition, type LogTable } from './log-store.repository.js';
import { DAY_MS, retentionStart, utcDay } from './log-time.js';

/** How often every node runs the retention job (one at a time, through an advisory lock). */
export const RETENTION_EVERY_MS = 3_600_000;

const TABLES: LogTable[] = ['log_entries', 'report_events'];

export type RetentionDeps = { config: Config; db: Db; clock: Clock; logger: Logger };

/**
 * LOG_RETENTION_DAYS applied: every day partition of both log tables whose whole day is older
 * than the retention is dropped (a day ends before the retention starts), and today's and
 * tomorrow's partitions are made ahead of the writers. Answers the partitions dropped, or null
 * when another node was running the job.
 */
export async function runLogRetention(deps: RetentionDeps): Promise<DayPartition[] | null> {
  const now = deps.clock.now();
  const keepFrom = retentionStart(now, deps.config.LOG_RETENTION_DAYS);
  return withRetentionLock(deps.db, async (tx) => {
    const old = (await listDayPartitions(tx)).filter((p) => Date.parse(`${p.day}T00:00:00Z`) + DAY_MS <= keepFrom);
    for (const partition of old) await dropDayPartition(tx, partition);
    for (const table of TABLES) {
      await ensureDayPartition(tx, table, utcDay(now));
      await ensureDayPartition(tx, table, utcDay(new Date(now.getTime() + DAY_MS)));
    }
    // Leases the consoles stopped renewing a day ago.
    await deleteExpiredLeases(tx, new Date(now.getTime() - DAY_MS));
    return old;
  });
}

/** Runs the retention job now and every hour until stopped (the server is stopping). */
export function startLogRetention(deps: RetentionDeps, everyMs = RETENTION_EVERY_MS): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      try {
        const dropped = await runLogRetention(deps);
        if (dropped?.length) deps.logger.info({ partitions: dropped.map((p) => p.name) }, 'log days past the retention dropped');
      } catch (error) {
        deps.logger.warn({ failure: describeFailure(error) }, 'the log retention job failed');
      }
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
