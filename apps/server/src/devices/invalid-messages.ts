import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { addInvalidMessages, writeAndLogFailures, type InvalidMessagesWrite } from './hardware-ingest.repository.js';

/** A board's dropped messages are logged at most this often (ms); the next line counts the ones held back. */
export const INVALID_MESSAGE_LOG_INTERVAL_MS = 60_000;
/** Longest reason stored and logged, in characters. */
const MAX_REASON_LENGTH = 300;

/**
 * What the hardware gateway does with a board's message that fails validation: it is dropped,
 * counted in the board's health (`hardware.invalid_messages`, `last_invalid_reason`,
 * `last_invalid_at`, written in batches and added up in the database, so every server instance
 * counts into one number), and logged with its reason at most once a minute per board.
 */
export type InvalidMessages = {
  /**
   * A message on `channel` was dropped for `reason` (which names the field, never its value).
   * `count: false` logs without counting: for messages every instance receives.
   */
  record: (hardwareId: string, channel: string, reason: string, options?: { count?: boolean }) => void;
  /** Stores the counts gathered so far. */
  flush: () => Promise<void>;
};

type LogState = { loggedAt: number; heldBack: number };

export function createInvalidMessages(
  deps: { db: Db; logger: Logger; clock: Clock },
  options: { flushMs: number; logIntervalMs?: number },
): InvalidMessages {
  const { db, logger, clock } = deps;
  const logIntervalMs = options.logIntervalMs ?? INVALID_MESSAGE_LOG_INTERVAL_MS;
  const counts = new Map<string, InvalidMessagesWrite>();
  const logStates = new Map<string, LogState>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();

  /** Logs the drop unless this board's last line is less than an interval old; then it is held back and counted. */
  const log = (hardwareId: string, channel: string, reason: string, now: number) => {
    const state = logStates.get(hardwareId);
    if (state && now - state.loggedAt < logIntervalMs) {
      state.heldBack += 1;
      return;
    }
    logger.warn({ hardwareId, channel, reason, suppressed: state?.heldBack ?? 0 }, 'invalid board message dropped');
    logStates.set(hardwareId, { loggedAt: now, heldBack: 0 });
  };

  /** Forgets boards whose last line is an interval old and that held nothing back since. */
  const forgetQuietBoards = (now: number) => {
    for (const [hardwareId, state] of logStates) {
      if (state.heldBack === 0 && now - state.loggedAt >= logIntervalMs) logStates.delete(hardwareId);
    }
  };

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    forgetQuietBoards(clock.now().getTime());
    if (!counts.size) return flushing;
    const batch = [...counts.values()];
    counts.clear();
    flushing = flushing.then(() => writeAndLogFailures(logger, 'counting invalid board messages failed', () => addInvalidMessages(db, batch)));
    return flushing;
  };

  return {
    record(hardwareId, channel, reason, recordOptions = {}) {
      const at = clock.now();
      const text = `${channel}: ${reason}`.slice(0, MAX_REASON_LENGTH);
      log(hardwareId, channel, text, at.getTime());
      if (recordOptions.count === false) return;
      const known = counts.get(hardwareId);
      counts.set(hardwareId, { hardwareId, count: (known?.count ?? 0) + 1, reason: text, at });
      timer ??= setTimeout(() => void flush(), options.flushMs);
    },
    flush,
  };
}
