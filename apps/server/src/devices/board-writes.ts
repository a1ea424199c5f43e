import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { writeAndLogFailures, writeHeartbeats, writePropValues, type HeartbeatWrite, type PropWrite } from './hardware-ingest.repository.js';
import { WriteBatcher } from '../lib/write-batcher.js';
import { retryWhileDatabaseAway } from '../lib/database-retry.js';
import { splitOnePerBoard } from '../lib/one-per-board.js';

/** A board's prop values waiting to be stored: the newest of each prop, in the order they first came. */
type BoardPropValues = { hardwareId: string; writes: PropWrite[] };

/** `values` with `write` in place of the waiting value of its prop, or after the others. */
function putValue(values: BoardPropValues, write: PropWrite): void {
  const { writes } = values;
  for (let i = 0; i < writes.length; i++) {
    const waiting = writes[i]!;
    if (waiting.peripheralId === write.peripheralId && waiting.propName === write.propName) {
      writes[i] = write;
      return;
    }
  }
  writes.push(write);
}

/** Rows stored in one statement at most (a heartbeat has 7 parameters, well under PostgreSQL's 65,535). */
export const BOARD_WRITE_BATCH = 1000;

/**
 * The bulk of board traffic, stored in batches: heartbeats (the newest per board) and prop values
 * (the newest per prop). Both reach consoles at once through the hub; storing them together every
 * `flushMs` (or sooner when many wait) means a busy database never delays the live view.
 */
export class BoardWrites {
  private readonly heartbeats: WriteBatcher<HeartbeatWrite>;
  /** Keyed by board: a key made of board, peripheral and prop for each message cost 3–4% of the main thread. */
  private readonly props: WriteBatcher<BoardPropValues>;

  constructor(deps: { db: Db; logger: Logger }, flushMs: number) {
    const { db, logger } = deps;
    this.heartbeats = new WriteBatcher<HeartbeatWrite>({
      flushMs,
      maxWaiting: BOARD_WRITE_BATCH,
      retry: retryWhileDatabaseAway(logger, 'heartbeat writes'),
      store: async (batch) => {
        for (let i = 0; i < batch.length; i += BOARD_WRITE_BATCH) {
          const part = batch.slice(i, i + BOARD_WRITE_BATCH);
          await writeAndLogFailures(logger, 'storing heartbeats failed', () => writeHeartbeats(db, part));
        }
      },
    });
    this.props = new WriteBatcher<BoardPropValues>({
      flushMs,
      maxWaiting: BOARD_WRITE_BATCH,
      retry: retryWhileDatabaseAway(logger, "boards' prop value writes"),
      // Values put back after a failed store, under what changed since.
      merge: (older, newer) => {
        for (const write of newer.writes) putValue(older, write);
        return older;
      },
      store: async (boards) => {
        // One prop per board per statement (an UPDATE changes each row once).
        for (let rest = boards.flatMap((board) => board.writes); rest.length; ) {
          const { now, later } = splitOnePerBoard(rest, BOARD_WRITE_BATCH);
          await writeAndLogFailures(logger, 'storing prop values failed', () => writePropValues(db, now));
          rest = later;
        }
      },
    });
  }

  /** The newest heartbeat per board is stored. */
  heartbeat(write: HeartbeatWrite): void {
    this.heartbeats.add(write.hardwareId, write);
  }

  /** The newest value per prop is stored. */
  prop(write: PropWrite): void {
    const waiting = this.props.peek(write.hardwareId);
    if (waiting) putValue(waiting, write);
    else this.props.add(write.hardwareId, { hardwareId: write.hardwareId, writes: [write] });
  }

  /** Stores everything waiting. */
  async flush(): Promise<void> {
    await this.heartbeats.flush();
    await this.props.flush();
  }

  /**
   * On close: stores everything waiting, held writes included, trying for at most `withinMs`
   * while the database is away; what could not be stored is logged with its counts.
   */
  async finish(logger: Logger, withinMs: number): Promise<void> {
    const [heartbeats, props] = await Promise.all([this.heartbeats.finish(withinMs), this.props.finish(withinMs)]);
    if (heartbeats || props) logger.error({ heartbeats, props }, `stopping without the database: ${heartbeats} heartbeat writes and ${props} boards' prop value writes could not be stored`);
  }
}
