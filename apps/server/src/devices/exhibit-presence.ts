import { presentOpModeChanged, presentPresenceChanged } from '../modules/exhibit-runtime/exhibit-events.presenter.js';
import type { AppDeps } from '../deps.js';
import { insertConnectionHistory, releaseExhibitsHeldBy, resetStaleOnline, updateExhibitOnline } from '../modules/exhibit-runtime/exhibit-presence.repository.js';
import { recordExhibit } from '../modules/logging/records.js';
import { KeyedQueue } from './keyed-queue.js';
import type { OfflineReason } from './ports.js';

/** Why an exhibit went offline, as its log says it. */
const OFFLINE_REASONS: Record<OfflineReason, string> = {
  closed: 'the connection closed',
  timeout: 'silent for too long',
  revoked: 'its token was revoked',
  replaced: 'a newer connection replaced it',
  deleted: 'the exhibit was deleted',
  shutdown: 'the server stopped',
  restart: 'the server restarted',
  node_lost: 'the server node holding its connection stopped answering',
};

/** What the history row of a change says about the connection (read when the write runs). */
export type PresenceSource = { tokenId: string | null; remoteAddress: string; reason: OfflineReason };

/**
 * An exhibit's online state as this node changes it: `exhibits.online` with its stamp, a history
 * row, and the `exhibit.presenceChanged` and `exhibit.opModeChanged` events. Writes of one exhibit run in the
 * order they were asked for: a socket that closes while its "online" write is still running must
 * not end up online after its "offline".
 */
export class ExhibitPresence {
  /** The `lastOnlineChange` this node wrote when it last marked each exhibit online. */
  private readonly stamps = new Map<string, Date>();
  private readonly writes = new KeyedQueue();

  constructor(private readonly deps: AppDeps) {}

  /** With one node nothing can be connected at start: exhibits left online by a crash go offline. */
  async resetStale(): Promise<void> {
    await resetStaleOnline(this.deps.db, this.deps.clock.now());
  }

  /** Queues the exhibit's online write (a history row names the connection's token and address). */
  markOnline(exhibitId: string, source: PresenceSource): Promise<void> {
    return this.writes.run(exhibitId, () => this.write(exhibitId, source, true));
  }

  /** Queues the offline write; it applies only if no node marked the exhibit online since this node did. */
  markOffline(exhibitId: string, source: PresenceSource): Promise<void> {
    return this.writes.run(exhibitId, () => this.write(exhibitId, source, false));
  }

  /**
   * The connection was replaced by a newer one (on another node): that one holds the online
   * state, and this node must not write offline for it.
   */
  forget(exhibitId: string): void {
    this.stamps.delete(exhibitId);
  }

  private async write(exhibitId: string, source: PresenceSource, online: boolean): Promise<void> {
    const { deps } = this;
    const at = deps.clock.now();
    // Going offline applies only if no node marked the exhibit online since this node did: the
    // exhibit may already have reconnected through another node.
    const unlessChangedSince = online ? undefined : this.stamps.get(exhibitId);
    if (!online) this.stamps.delete(exhibitId);
    const row = await updateExhibitOnline(deps.db, exhibitId, { online, at, nodeId: deps.nodeId, unlessChangedSince });
    if (!row) return; // deleted meanwhile, or online again through another node
    if (online) this.stamps.set(exhibitId, at);
    await insertConnectionHistory(deps.db, {
      exhibitId,
      online,
      tokenId: online ? source.tokenId : null,
      remoteAddress: source.remoteAddress,
      reason: online ? null : source.reason,
      at,
    });
    deps.hub.publish('exhibit', exhibitId, presentPresenceChanged({ exhibitId, online, at }));
    if (online) recordExhibit(deps.logs, exhibitId, { eventType: 'online', message: `Online (connected from ${source.remoteAddress})` });
    else recordExhibit(deps.logs, exhibitId, { eventType: 'offline', level: source.reason === 'timeout' ? 'warn' : 'info', message: `Offline: ${OFFLINE_REASONS[source.reason]}` });
    // The console shows Off while the exhibit is offline, whatever is stored.
    deps.hub.publish('exhibit', exhibitId, presentOpModeChanged({ exhibitId, opMode: online ? row.opMode : 'Off' }));
  }

  /**
   * Another node died holding connections: its exhibits that no node marked online since go
   * offline ('node_lost'), announced and logged as any offline. Answers how many.
   */
  async releaseLostNode(nodeId: string): Promise<number> {
    const { deps } = this;
    const at = deps.clock.now();
    const released = await releaseExhibitsHeldBy(deps.db, nodeId, at);
    for (const exhibitId of released) {
      deps.hub.publish('exhibit', exhibitId, presentPresenceChanged({ exhibitId, online: false, at }));
      recordExhibit(deps.logs, exhibitId, { eventType: 'offline', level: 'warn', message: `Offline: ${OFFLINE_REASONS.node_lost}` });
      deps.hub.publish('exhibit', exhibitId, presentOpModeChanged({ exhibitId, opMode: 'Off' }));
    }
    return released.length;
  }
}
