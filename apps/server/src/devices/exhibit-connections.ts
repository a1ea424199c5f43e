import { EXHIBIT_OFFLINE_AFTER_MS } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { retryWhileDatabaseAway } from '../lib/database-retry.js';
import { describeFailure } from '../lib/describe-failure.js';
import { WriteBatcher } from '../lib/write-batcher.js';
import { writeStatusValues, type StatusValueWrite } from '../modules/exhibit-runtime/exhibit-runtime.repository.js';
import { EXHIBIT_CLOSES, type ExhibitConnection } from './exhibit-connection.js';
import { createDeviceChannel, type DeviceChannel } from './exhibit-device-channel.js';
import { ExhibitPresence } from './exhibit-presence.js';

/** How often waiting status values are stored, and how many at most go in one statement (3 parameters each). */
const STATUS_WRITE_FLUSH_MS = 100;
const STATUS_WRITE_BATCH = 1000;

/**
 * The exhibit connections of this node and what they share: the device channel to other nodes,
 * the online state, the work still running (awaited on close).
 */
export class ExhibitConnections {
  /** The connection through which each exhibit is reached on this node. */
  readonly current = new Map<string, ExhibitConnection>();
  /** Every open socket, authenticated or not. */
  readonly all = new Set<ExhibitConnection>();
  readonly devices: DeviceChannel;
  readonly presence: ExhibitPresence;
  /** Settles when connections may be marked online (after the start-up reset, with one node). */
  readonly ready: Promise<void>;
  closing = false;
  /** Status values from the exhibits, stored in batches (the newest per status) off their message queues. */
  readonly statusWrites: WriteBatcher<StatusValueWrite>;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(readonly deps: AppDeps) {
    this.devices = createDeviceChannel(deps.hub);
    this.statusWrites = new WriteBatcher<StatusValueWrite>({
      flushMs: STATUS_WRITE_FLUSH_MS,
      maxWaiting: STATUS_WRITE_BATCH,
      retry: retryWhileDatabaseAway(deps.logger, 'exhibit status writes'),
      store: async (batch) => {
        for (let i = 0; i < batch.length; i += STATUS_WRITE_BATCH) {
          await writeStatusValues(deps.db, batch.slice(i, i + STATUS_WRITE_BATCH)).catch((error: unknown) => {
            if (isDatabaseUnavailable(error)) throw error;
            deps.logger.error({ failure: describeFailure(error) }, 'storing exhibit status values failed');
          });
        }
      },
    });
    this.presence = new ExhibitPresence(deps);
    this.ready = deps.config.REDIS_URL
      ? Promise.resolve()
      : this.track(this.presence.resetStale()).catch((error: unknown) => {
          deps.logger.warn({ err: error }, 'could not reset the online state of exhibits');
        });
  }

  /** The clock's time in ms (connections' lastSeen and authenticatedAt). */
  now(): number {
    return this.deps.clock.now().getTime();
  }

  /** Keeps a promise until it settles, so that closing waits for it. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Whether this connection is the one its exhibit is reached through. */
  isCurrent(connection: ExhibitConnection): boolean {
    const id = connection.exhibitId;
    return id !== null && this.current.get(id) === connection;
  }

  /** The connection ended: if it was the exhibit's current one, the exhibit is offline. */
  ended(connection: ExhibitConnection): void {
    clearTimeout(connection.authTimer);
    this.all.delete(connection);
    connection.unsubscribe?.();
    const id = connection.exhibitId;
    if (!id || this.current.get(id) !== connection) return;
    this.current.delete(id);
    // Replaced by a newer connection (on another node): that one holds the online state, and an
    // offline write from here could land after its online write on a busy database.
    if (connection.reason === 'replaced') {
      this.presence.forget(id);
      return;
    }
    void this.track(this.presence.markOffline(id, connection)).catch((error: unknown) =>
      this.deps.logger.warn({ err: error, exhibitId: id }, 'could not mark the exhibit offline'),
    );
  }

  /** Pings live connections and drops those not heard from within the offline window. */
  sweep(): void {
    const limit = this.now() - EXHIBIT_OFFLINE_AFTER_MS;
    for (const connection of this.all) {
      if (connection.lastSeen < limit) {
        connection.reason = 'timeout';
        connection.socket.terminate();
      } else if (connection.socket.readyState === connection.socket.OPEN) {
        connection.socket.ping();
      }
    }
  }

  /** Closes this node's connections opened with a revoked token. */
  dropToken(tokenId: string): void {
    for (const connection of this.all) {
      if (connection.tokenId === tokenId) connection.drop(EXHIBIT_CLOSES.revoked);
    }
  }

  /**
   * The first step of a graceful stop: no new connection is taken, and every open one is told to
   * reconnect (1012), which the SDKs do, through the load balancer to a node that is not stopping.
   */
  goodbye(): void {
    this.closing = true;
    for (const connection of this.all) connection.drop(EXHIBIT_CLOSES.restarting);
  }

  /** Ends every connection (the exhibits go offline) and waits for the work still running. */
  async close(): Promise<void> {
    this.closing = true;
    for (const connection of [...this.all]) {
      connection.reason = 'shutdown';
      this.ended(connection);
      connection.socket.terminate();
    }
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    // Status values held through a database outage get a few more seconds, then are reported.
    const unstored = await this.statusWrites.finish(3000);
    if (unstored) this.deps.logger.error({ statuses: unstored }, `stopping without the database: ${unstored} exhibit status values could not be stored`);
  }
}
