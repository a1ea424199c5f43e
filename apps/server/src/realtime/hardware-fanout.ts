import type { HardwareEvent } from './hub-messages.js';
import { hubTopic, type HubSubscription, type RealtimeHub } from './hub.js';

/** A console connection, as the fan-out hands it a hardware unit's events. */
export type HardwareReceiver = {
  /** An event of a unit it subscribed to; `topic` is the unit's hub topic. */
  hardwareEvent: (event: HardwareEvent, publishedAt: number, topic: string) => void;
};

type Topic = { topic: string; receivers: HardwareReceiver[]; subscription: HubSubscription | null };

/**
 * One hub listener per hardware unit on this node, handing each of its events to the console
 * connections subscribed to it, one after the other from a plain array. A control-room wall (a
 * hundred consoles, each watching 10,000 boards) held a million listeners, each a closure with
 * its own context, and the hub called each for every event; here it is a million array slots and
 * one method of the same class (docs/performance.md, "The wall's hand-over").
 *
 * Who receives an event is who was subscribed when it was published: a connection added while it
 * is handed over does not receive it, one removed meanwhile does not either. Outside a hand-over
 * the array changes in place; during one it is replaced by a changed copy.
 */
export class HardwareFanout {
  private readonly topics = new Map<string, Topic>();
  private delivering = 0;

  constructor(private readonly hub: RealtimeHub) {}

  /** Hands `receiver` the unit's events until the answered function is called (once is enough; again does nothing). */
  add(hardwareId: string, receiver: HardwareReceiver): () => void {
    const topic = hubTopic('hardware', hardwareId);
    let entry = this.topics.get(topic);
    if (!entry) {
      const created: Topic = { topic, receivers: [], subscription: null };
      created.subscription = this.hub.subscribe('hardware', hardwareId, (event, publishedAt) => this.deliver(created, event, publishedAt));
      this.topics.set(topic, created);
      entry = created;
    }
    const current = entry;
    if (this.delivering) current.receivers = [...current.receivers, receiver];
    else current.receivers.push(receiver);
    let added = true;
    return () => {
      if (!added) return;
      added = false;
      this.remove(current, receiver);
    };
  }

  /** Units with at least one receiver on this node. */
  get topicCount(): number {
    return this.topics.size;
  }

  private remove(entry: Topic, receiver: HardwareReceiver): void {
    const index = entry.receivers.indexOf(receiver);
    if (index < 0) return;
    if (entry.receivers.length === 1) {
      entry.receivers = [];
      entry.subscription?.();
      entry.subscription = null;
      // An emptied entry is never reached again (its receivers are gone), so it is the one mapped.
      this.topics.delete(entry.topic);
    } else if (this.delivering) entry.receivers = [...entry.receivers.slice(0, index), ...entry.receivers.slice(index + 1)];
    else entry.receivers.splice(index, 1);
  }

  private deliver(entry: Topic, event: HardwareEvent, publishedAt: number): void {
    const receivers = entry.receivers;
    this.delivering++;
    try {
      for (const receiver of receivers) {
        // Removed while this event was handed over (the array was replaced): not handed this one.
        if (entry.receivers !== receivers && !entry.receivers.includes(receiver)) continue;
        receiver.hardwareEvent(event, publishedAt, entry.topic);
      }
    } finally {
      this.delivering--;
    }
  }
}
