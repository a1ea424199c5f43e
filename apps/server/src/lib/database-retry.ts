import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/errors.js';
import { describeFailure } from './describe-failure.js';

/** The batchers' retry while the database is away, reported once per outage with the counts. */
export function retryWhileDatabaseAway(logger: Logger, what: string) {
  return {
    when: isDatabaseUnavailable,
    onHeld: (waiting: number, error: unknown) =>
      logger.warn({ waiting, failure: describeFailure(error) }, `the database cannot be reached: ${waiting} ${what} held, retrying until it is back`),
    onResumed: (failures: number) => logger.info({ failures }, `the database is back: storing the held ${what} (after ${failures} failed attempts)`),
  };
}
