import type { HardwareEvent } from './hub-messages.js';
import type { HubSubscription, RealtimeHub } from './hub.js';

/** A console connection, as the fan-out hands it a hardware unit's events. */
export type HardwareReceiver = {
  /** An event of a unit it subscribed to. */
  hardwareEvent: (event: HardwareEvent, publishedAt: number, hardwareId: string) => void;
};

type Unit = { hardwareId: string; receivers: HardwareReceiver[]; subscription: HubSubscription | null };

/**
 * One hub listener per hardware unit on this node, handing each of its events to the console
 * connections subscribed to it, one after the other from a plain array. A control-room wall (a
 * hundred consoles, each watching 10,000 boards) held a million listeners, each a closure with
 * its own context, and the hub called each for every event; here it is a million array slots and
 * one method of the same class (docs/performance.md, "The wall's hand-over"). A subscription
 * leaves nothing else behind: no closure to undo it and no topic string of its own, since a
 * connection keeps the unit's id as `add` answers it, one string for every console
 * (docs/performance.md, "A wall's subscriptions").
 *
 * Who receives an event is who was subscribed when it was published: a connection added while it
 * is handed over does not receive it, one removed meanwhile does not either. Outside a hand-over
 * the array changes in place; during one it is replaced by a changed copy.
 */
export class HardwareFanout {
  private readonly units = new Map<string, Unit>();
  private delivering = 0;

  constructor(private readonly hub: RealtimeHub) {}

  /**
   * Hands `receiver` the unit's events until `remove` is called for it; a receiver is added once
   * (its caller knows what it subscribed to). Answers the unit's id as this fan-out keeps it, for
   * the caller to keep instead of its own copy.
   */
  add(hardwareId: string, receiver: HardwareReceiver): string {
    let unit = this.units.get(hardwareId);
    if (!unit) {
      const created: Unit = { hardwareId, receivers: [], subscription: null };
      created.subscription = this.hub.subscribe('hardware', hardwareId, (event, publishedAt) => this.deliver(created, event, publishedAt));
      this.units.set(hardwareId, created);
      unit = created;
    }
    if (this.delivering) unit.receivers = [...unit.receivers, receiver];
    else unit.receivers.push(receiver);
    return unit.hardwareId;
  }

  /** Stops handing `receiver` the unit's events (nothing when it was not handed them). */
  remove(hardwareId: string, receiver: HardwareReceiver): void {
    const unit = this.units.get(hardwareId);
    const index = unit ? unit.receivers.indexOf(receiver) : -1;
    if (!unit || index < 0) return;
    if (unit.receivers.length === 1) {
      unit.receivers = [];
      unit.subscription?.();
      unit.subscription = null;
      this.units.delete(hardwareId);
    } else if (this.delivering) unit.receivers = [...unit.receivers.slice(0, index), ...unit.receivers.slice(index + 1)];
    else unit.receivers.splice(index, 1);
  }

  /** Units with at least one receiver on this node. */
  get unitCount(): number {
    return this.units.size;
  }

  private deliver(unit: Unit, event: HardwareEvent, publishedAt: number): void {
    const receivers = unit.receivers;
    this.delivering++;
    try {
      for (const receiver of receivers) {
        // Removed while this event was handed over (the array was replaced): not handed this one.
        if (unit.receivers !== receivers && !unit.receivers.includes(receiver)) continue;
        receiver.hardwareEvent(event, publishedAt, unit.hardwareId);
      }
    } finally {
      this.delivering--;
    }
  }
}
