import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../lib/metrics.js';
import { addInvalidMessages, writeAndLogFailures, type InvalidMessagesWrite } from './hardware-ingest.repository.js';
import { WriteBatcher } from '../lib/write-batcher.js';
import { retryWhileDatabaseAway } from '../lib/database-retry.js';

/** A board's dropped messages are logged at most this often (ms); the next line counts the ones held back. */
export const INVALID_MESSAGE_LOG_INTERVAL_MS = 60_000;
/** Longest reason stored and logged, in characters. */
const MAX_REASON_LENGTH = 300;

/**
 * A message dropped on `channel` for `reason` (which names the field, never its value).
 * `count: false` logs without counting: for messages every instance receives.
 */
export type InvalidMessage = { channel: string; reason: string; count?: boolean };

/**
 * What the hardware gateway does with a board's message that fails validation: it is dropped,
 * counted in the board's health (`hardware.invalid_messages`, `last_invalid_reason`,
 * `last_invalid_at`, written in batches and added up in the database, so every server instance
 * counts into one number), counted in this node's metrics, and logged with its reason at most once a minute per board.
 */
export type InvalidMessages = {
  record: (hardwareId: string, message: InvalidMessage) => void;
  /** Stores the counts gathered so far. */
  flush: () => Promise<void>;
  /** On close: stores the counts waiting, trying for at most `withinMs` while the database is away. */
  finish: (withinMs: number) => Promise<void>;
};

type LogState = { loggedAt: number; heldBack: number };

export function createInvalidMessages(
  deps: { db: Db; logger: Logger; clock: Clock; metrics: Pick<Metrics, 'boardMessagesInvalid'> },
  options: { flushMs: number; logIntervalMs?: number },
): InvalidMessages {
  const { db, logger, clock } = deps;
  const logIntervalMs = options.logIntervalMs ?? INVALID_MESSAGE_LOG_INTERVAL_MS;
  const logStates = new Map<string, LogState>();

  /** Logs the drop unless this board's last line is less than an interval old; then it is held back and counted. */
  const log = (hardwareId: string, message: InvalidMessage, now: number) => {
    const state = logStates.get(hardwareId);
    if (state && now - state.loggedAt < logIntervalMs) {
      state.heldBack += 1;
      return;
    }
    logger.warn({ hardwareId, channel: message.channel, reason: message.reason, suppressed: state?.heldBack ?? 0 }, 'invalid board message dropped');
    logStates.set(hardwareId, { loggedAt: now, heldBack: 0 });
  };

  /** Forgets boards whose last line is an interval old and that held nothing back since. */
  const forgetQuietBoards = () => {
    const now = clock.now().getTime();
    for (const [hardwareId, state] of logStates) {
      if (state.heldBack === 0 && now - state.loggedAt >= logIntervalMs) logStates.delete(hardwareId);
    }
  };

  const counts = new WriteBatcher<InvalidMessagesWrite>({
    flushMs: options.flushMs,
    retry: retryWhileDatabaseAway(logger, 'invalid-message counts'),
    // A batch put back after a failed store holds counts not yet added: the ones gathered meanwhile add to them.
    merge: (older, newer) => ({ ...newer, count: older.count + newer.count }),
    store: (batch) => {
      forgetQuietBoards();
      return writeAndLogFailures(logger, 'counting invalid board messages failed', () => addInvalidMessages(db, batch));
    },
  });

  return {
    record(hardwareId, message) {
      deps.metrics.boardMessagesInvalid.inc(message.channel);
      const at = clock.now();
      const reason = `${message.channel}: ${message.reason}`.slice(0, MAX_REASON_LENGTH);
      log(hardwareId, { channel: message.channel, reason }, at.getTime());
      if (message.count === false) return;
      const known = counts.peek(hardwareId);
      counts.add(hardwareId, { hardwareId, count: (known?.count ?? 0) + 1, reason, at });
    },
    flush: () => {
      forgetQuietBoards();
      return counts.flush();
    },
    finish: async (withinMs) => {
      const lost = await counts.finish(withinMs);
      if (lost) logger.error({ boards: lost }, `stopping without the database: the invalid-message counts of ${lost} boards could not be stored`);
    },
  };
}
