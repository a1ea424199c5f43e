import { describe, expect, it } from 'vitest';
import { HardwareFanout, type HardwareReceiver } from './hardware-fanout.js';
import type { HardwareEvent } from './hub-messages.js';
import { createInProcessHub } from './hub.js';

const beat = (hardwareId: string, uptime: number): HardwareEvent => ({
  type: 'hardware.statusChanged',
  hardwareId,
  voltage: 5,
  temp: 20,
  uptime,
  exhibitState: null,
  exhibitIP: null,
  updatedAt: new Date(0).toISOString(),
});

/** A receiver that notes what it gets, and may act while it is handed an event. */
function receiver(name: string, got: string[], also?: () => void): HardwareReceiver {
  return {
    hardwareEvent: (event, _publishedAt, hardwareId) => {
      got.push(`${name}:${hardwareId}:${event.type === 'hardware.statusChanged' ? event.uptime : '?'}`);
      also?.();
    },
  };
}

describe('hardware fan-out', () => {
  it('hands each unit event to the receivers subscribed to it, and leaves the hub once none is', () => {
    const hub = createInProcessHub();
    const fanout = new HardwareFanout(hub);
    const got: string[] = [];
    const [a, b, c] = [receiver('a', got), receiver('b', got), receiver('c', got)];
    expect(fanout.add('h1', a)).toBe('h1');
    fanout.add('h1', b);
    fanout.add('h2', c);
    hub.publish('hardware', 'h1', beat('h1', 1));
    hub.publish('hardware', 'h2', beat('h2', 2));
    expect(got).toEqual(['a:h1:1', 'b:h1:1', 'c:h2:2']);
    expect(fanout.unitCount).toBe(2);

    fanout.remove('h1', a);
    fanout.remove('h1', a);
    // Not subscribed to this unit, or to any: nothing changes.
    fanout.remove('h2', a);
    fanout.remove('h3', a);
    got.length = 0;
    hub.publish('hardware', 'h1', beat('h1', 3));
    hub.publish('hardware', 'h2', beat('h2', 3));
    expect(got).toEqual(['b:h1:3', 'c:h2:3']);
    fanout.remove('h1', b);
    expect(fanout.unitCount).toBe(1);
    got.length = 0;
    hub.publish('hardware', 'h1', beat('h1', 4));
    expect(got).toEqual([]);

    // Subscribed again: a new hub listener, events flow again.
    fanout.add('h1', receiver('d', got));
    hub.publish('hardware', 'h1', beat('h1', 5));
    expect(got).toEqual(['d:h1:5']);
  });

  it('hands an event to those subscribed when it was published, whoever is added or removed meanwhile', () => {
    const hub = createInProcessHub();
    const fanout = new HardwareFanout(hub);
    const got: string[] = [];
    const receivers = new Map<string, HardwareReceiver>();
    // The first receiver, handed an event, removes the second and adds a fourth.
    receivers.set(
      'one',
      receiver('one', got, () => {
        if (receivers.has('four')) return;
        fanout.remove('h', receivers.get('two')!);
        receivers.set('four', receiver('four', got));
        fanout.add('h', receivers.get('four')!);
      }),
    );
    receivers.set('two', receiver('two', got));
    receivers.set('three', receiver('three', got));
    for (const name of ['one', 'two', 'three']) fanout.add('h', receivers.get(name)!);
    hub.publish('hardware', 'h', beat('h', 1));
    expect(got).toEqual(['one:h:1', 'three:h:1']);
    got.length = 0;
    hub.publish('hardware', 'h', beat('h', 2));
    expect(got).toEqual(['one:h:2', 'three:h:2', 'four:h:2']);
    for (const one of receivers.values()) fanout.remove('h', one);
    expect(fanout.unitCount).toBe(0);
  });
});
