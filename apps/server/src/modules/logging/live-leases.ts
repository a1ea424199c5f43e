import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { describeFailure } from '../../lib/describe-failure.js';
import { listLiveLeases } from './live-log.repository.js';
import type { LeaseChange, LogSource } from './ports.js';

/** How often every node re-reads the unexpired leases (one query). */
export const LEASE_REREAD_MS = 1000;

type Expiries = Map<string, number>;
/** Each source's devices → user id → expiry (ms): looked up without a key made for each line. */
type Leases = Record<LogSource, Map<string, Expiries>>;

const noLeases = (): Leases => ({ exhibit: new Map(), hardware: new Map() });

/**
 * The unexpired live-log leases, as this node knows them: the whole table re-read about every
 * second (leases are few: one per console in live mode), and changed at once by the leases this
 * node takes or gives up. Asking whether a device is live is a map lookup, cheap enough for every
 * line of a busy device.
 */
export class LiveLeases {
  private leases = noLeases();
  /** Changes made here while a re-read was under way, applied again over its (older) answer. */
  private changesDuringRead: LeaseChange[] | null = null;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { db: Db; clock: Clock; logger: Logger }) {}

  /** Re-reads now and then about every second. */
  start(): void {
    void this.reread();
    this.timer = setInterval(() => void this.reread(), LEASE_REREAD_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reading;
  }

  /** Whether anyone's lease on the device is unexpired at `nowMs`. */
  isLive(source: LogSource, deviceId: string, nowMs: number): boolean {
    const users = this.leases[source].get(deviceId);
    if (!users) return false;
    for (const expiresAt of users.values()) if (expiresAt > nowMs) return true;
    return false;
  }

  /** A lease this node took or gave up. */
  change(change: LeaseChange): void {
    this.changesDuringRead?.push(change);
    this.apply(this.leases, change);
  }

  /** Reads the unexpired leases (one query); a failed read keeps what was known. A read under way is not doubled. */
  reread(): Promise<void> {
    if (this.changesDuringRead) return this.reading;
    this.reading = this.reading.then(async () => {
      this.changesDuringRead = [];
      try {
        const rows = await listLiveLeases(this.deps.db, this.deps.clock.now());
        const next = noLeases();
        for (const row of rows) this.apply(next, row);
        for (const change of this.changesDuringRead) this.apply(next, change);
        this.leases = next;
      } catch (error) {
        this.deps.logger.warn({ failure: describeFailure(error) }, 'could not read the live-log leases');
      } finally {
        this.changesDuringRead = null;
      }
    });
    return this.reading;
  }

  private apply(leases: Leases, change: LeaseChange): void {
    const devices = leases[change.source];
    let users = devices.get(change.deviceId);
    if (change.expiresAt) {
      if (!users) devices.set(change.deviceId, (users = new Map()));
      users.set(change.userId, change.expiresAt.getTime());
      return;
    }
    users?.delete(change.userId);
    if (users?.size === 0) devices.delete(change.deviceId);
  }
}
