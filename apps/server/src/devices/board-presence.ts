import { DEFAULT_HEARTBEAT_MS, HEARTBEAT_MISSES_BEFORE_OFFLINE } from '@plinth/shared';
import { presentHardwarePresenceChanged } from '../modules/hardware-runtime/hardware-events.presenter.js';
import type { AppDeps } from '../deps.js';
import { listOnlineIds, setAllOffline, setOnlineMany, type ConnectionReason, type OnlineChange } from '../modules/hardware-runtime/hardware-state.repository.js';
import { CallBatcher } from '../lib/call-batcher.js';
import { isDataRefusal } from '../db/errors.js';
import type { BoardQueue } from './board-queue.js';
import { recordHardware } from '../modules/logging/records.js';
import { readLastWrite } from './hardware-ingest.repository.js';

/** How long a board may stay silent before it is offline, unless it announced its own heartbeat. */
const DEFAULT_WINDOW_MS = DEFAULT_HEARTBEAT_MS * HEARTBEAT_MISSES_BEFORE_OFFLINE;

/** When a board last spoke (ms, the process's clock) and how long it may stay silent. */
type Seen = { at: number; windowMs: number };

/** Online changes stored in one transaction at most (five parameters each in its statements). */
const ONLINE_CHANGE_BATCH = 1000;

/** A board told to reboot goes offline within this long (ms): that offline is its reboot. */
const REBOOT_WINDOW_MS = 60_000;

/** Why a board came online or went offline, as its log says it. */
const CHANGE_REASONS: Record<ConnectionReason, string> = {
  connect: 'it connected',
  message: 'it was heard from',
  will: 'it went away (its goodbye, or its last will when the connection was lost)',
  timeout: 'silent for too long',
  disconnect: 'the connection closed',
  revoked: 'its token was revoked',
  restart: 'the server restarted',
};

/**
 * Whether each board is online (docs/protocols/hardware-mqtt.md, online and offline): online from
 * its first message, offline on its will, a lost connection, or silence longer than its window,
 * which a watchdog looks for. Changes are stored with their reason and pushed as `hardware.online`.
 */
export class BoardPresence {
  private readonly lastSeen = new Map<string, Seen>();
  /** Boards this instance told to reboot, and when (ms). */
  private readonly rebooting = new Map<string, number>();
  private watchdog: NodeJS.Timeout | undefined;
  /** Changes made at once (a venue's boards dropping or coming back) are stored together. */
  private readonly changes: CallBatcher<OnlineChange, boolean>;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: { isShared: boolean; queue: BoardQueue },
  ) {
    this.changes = new CallBatcher({ maxBatch: ONLINE_CHANGE_BATCH, run: (changes) => setOnlineMany(deps.db, changes), isolate: isDataRefusal });
  }

  /**
   * At start: with the embedded broker no board can be connected yet, so boards marked online are
   * offline; with a shared broker they stay online until their window passes in silence.
   */
  async start(): Promise<void> {
    if (!this.options.isShared) {
      await setAllOffline(this.deps.db, this.deps.clock.now());
      return;
    }
    for (const id of await listOnlineIds(this.deps.db)) this.lastSeen.set(id, { at: Date.now(), windowMs: DEFAULT_WINDOW_MS });
  }

  /** Boards this instance holds online: heard within their window and not gone offline since. */
  get onlineCount(): number {
    return this.lastSeen.size;
  }

  /** Looks for silent boards every `watchdogMs`. */
  watch(watchdogMs: number): void {
    this.watchdog = setInterval(() => this.findSilent(), watchdogMs);
    this.watchdog.unref();
  }

  /** Stops the watchdog (the gateway is closing). */
  stop(): void {
    clearInterval(this.watchdog);
  }

  /** Stores, announces and logs a change of the board's online state (once, even with several instances). */
  async changeOnline(hardwareId: string, { online, reason, epoch }: { online: boolean; reason: ConnectionReason; epoch?: number }): Promise<void> {
    if (!online) this.lastSeen.delete(hardwareId);
    if (await this.changes.call({ hardwareId, online, reason, at: this.deps.clock.now(), epoch })) {
      this.deps.hub.publish('hardware', hardwareId, presentHardwarePresenceChanged({ hardwareId, online }));
      this.deps.logger.debug({ hardwareId, online, reason }, 'hardware online change');
      this.logChange(hardwareId, online, reason);
    }
  }

  /** The board accepted a reboot: its coming offline is the reboot, not a failure. */
  expectReboot(hardwareId: string): void {
    this.rebooting.set(hardwareId, Date.now());
  }

  private logChange(hardwareId: string, online: boolean, reason: ConnectionReason): void {
    if (online) {
      recordHardware(this.deps.logs, hardwareId, { eventType: 'online', message: `Online: ${CHANGE_REASONS[reason]}` });
      return;
    }
    const rebootAsked = this.rebooting.get(hardwareId);
    this.rebooting.delete(hardwareId);
    if (rebootAsked !== undefined && Date.now() - rebootAsked <= REBOOT_WINDOW_MS) {
      recordHardware(this.deps.logs, hardwareId, { eventType: 'offline', message: 'Offline: rebooting' });
      return;
    }
    // A board that stopped answering, or whose connection broke without a goodbye, is worth a look.
    const level = reason === 'timeout' || reason === 'disconnect' ? 'warn' : 'info';
    recordHardware(this.deps.logs, hardwareId, { eventType: 'offline', level, message: `Offline: ${CHANGE_REASONS[reason]}` });
  }

  /**
   * The board spoke: when this instance holds it online, its entry is updated in place and true
   * answered (nothing allocated, nothing awaited: every heartbeat and prop change comes here);
   * otherwise false, and `touch` must bring it online.
   */
  touchHeard(hardwareId: string): boolean {
    const known = this.lastSeen.get(hardwareId);
    if (!known) return false;
    known.at = Date.now();
    return true;
  }

  /** The board spoke; `windowMs` when it announced its heartbeat. A board not heard before comes online. */
  async touch(hardwareId: string, windowMs?: number): Promise<void> {
    const known = this.lastSeen.get(hardwareId);
    if (known) {
      // Every heartbeat comes here: the entry is updated in place, nothing is allocated.
      known.at = Date.now();
      if (windowMs !== undefined) known.windowMs = windowMs;
      return;
    }
    await this.comeOnline(hardwareId, { at: Date.now(), windowMs: windowMs ?? DEFAULT_WINDOW_MS }, { reason: 'message' });
  }

  /**
   * The board said it connected: online whatever this instance last heard, since the offline
   * before it may have been handled by another server instance.
   */
  async connected(hardwareId: string, epoch?: number): Promise<void> {
    const known = this.lastSeen.get(hardwareId);
    await this.comeOnline(hardwareId, { at: Date.now(), windowMs: known?.windowMs ?? DEFAULT_WINDOW_MS }, { reason: 'connect', epoch });
  }

  /**
   * Holds the board as heard and stores it online. When the write fails the board is not held,
   * so that its next message (or this one, tried again by the queue) brings it online.
   */
  private async comeOnline(hardwareId: string, seen: Seen, change: { reason: ConnectionReason; epoch?: number }): Promise<void> {
    this.lastSeen.set(hardwareId, seen);
    try {
      await this.changeOnline(hardwareId, { online: true, ...change });
    } catch (error) {
      this.lastSeen.delete(hardwareId);
      throw error;
    }
  }

  /** The board was deleted. */
  forget(hardwareId: string): void {
    this.lastSeen.delete(hardwareId);
    this.rebooting.delete(hardwareId);
  }

  private findSilent(): void {
    const now = Date.now();
    for (const [hardwareId, seen] of this.lastSeen) {
      if (now - seen.at <= seen.windowMs) continue;
      this.lastSeen.delete(hardwareId);
      this.options.queue.enqueue(hardwareId, () => this.timeOut(hardwareId, seen.windowMs));
    }
  }

  /**
   * A board this instance has not heard within its window. With shared board traffic another
   * instance may be hearing it (the broker can hand all its heartbeats to one instance): it is
   * offline only when its row shows no write within the window either.
   */
  private async timeOut(hardwareId: string, windowMs: number): Promise<void> {
    if (this.options.isShared) {
      const heardAt = await readLastWrite(this.deps.db, hardwareId);
      const silentMs = heardAt ? this.deps.clock.now().getTime() - heardAt.getTime() : Number.POSITIVE_INFINITY;
      if (silentMs <= windowMs) {
        if (!this.lastSeen.has(hardwareId)) this.lastSeen.set(hardwareId, { at: Date.now() - Math.max(0, silentMs), windowMs });
        return;
      }
    }
    await this.changeOnline(hardwareId, { online: false, reason: 'timeout' });
  }
}
