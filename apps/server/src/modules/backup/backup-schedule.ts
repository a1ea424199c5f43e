import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { nextCronTime } from '../../lib/cron.js';
import { writeBackup, type BackupSource } from './backup.service.js';

/** The name of a scheduled backup: plinth-<UTC time>.tar.gz, so that names sort by age. */
const NAME = /^plinth-\d{8}T\d{6}Z\.tar\.gz$/;
export const scheduledBackupName = (at: Date) => `plinth-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}.tar.gz`;

export type BackupScheduleInput = {
  source: BackupSource;
  config: Pick<Config, 'BACKUP_CRON' | 'BACKUP_KEEP' | 'BACKUP_DIR' | 'TIME_ZONE' | 'dataDir'>;
  clock: Clock;
  logger: Logger;
};

/**
 * Backups of the embedded database on BACKUP_CRON into BACKUP_DIR (default DATA_DIR/backups),
 * keeping the BACKUP_KEEP newest. One timer to the next time; a backup that fails is logged and
 * the next one runs as planned. Answers the stop function (which waits for a backup under way).
 */
export function startBackupSchedule(input: BackupScheduleInput): { stop: () => Promise<void> } {
  const { config, logger } = input;
  const expression = config.BACKUP_CRON;
  if (!expression) return { stop: async () => undefined };
  const folder = path.resolve(config.BACKUP_DIR || path.join(config.dataDir, 'backups'));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const plan = () => {
    if (stopped) return;
    const now = input.clock.now();
    const next = nextCronTime(expression, now, config.TIME_ZONE);
    // setTimeout holds at most ~24.8 days; a later time is planned again when the timer fires.
    timer = setTimeout(() => {
      if (input.clock.now().getTime() + 1000 < next.getTime()) return plan();
      running = runOnce(input, folder).finally(plan);
    }, Math.min(next.getTime() - now.getTime(), 2 ** 31 - 1));
    timer.unref();
  };
  plan();
  logger.info(`Backups run on "${expression}" into ${folder}, keeping the newest ${config.BACKUP_KEEP}`);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** One scheduled backup, then the oldest ones past BACKUP_KEEP are deleted. */
export async function runOnce(input: Pick<BackupScheduleInput, 'source' | 'config' | 'clock' | 'logger'>, folder: string): Promise<void> {
  try {
    await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    const summary = await writeBackup(input.source, path.join(folder, scheduledBackupName(input.clock.now())));
    input.logger.info(`Scheduled backup written to ${summary.file} (${summary.rows} rows, ${summary.files} files)`);
    const names = (await fs.promises.readdir(folder)).filter((name) => NAME.test(name)).sort();
    for (const old of names.slice(0, Math.max(0, names.length - input.config.BACKUP_KEEP))) await fs.promises.rm(path.join(folder, old), { force: true });
  } catch (error) {
    input.logger.error({ err: error }, 'The scheduled backup failed; the next one runs as planned');
  }
}
