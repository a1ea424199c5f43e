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
    hardwareEvent: (event, _publishedAt, topic) => {
      got.push(`${name}:${topic}:${event.type === 'hardware.statusChanged' ? event.uptime : '?'}`);
      also?.();
    },
  };
}

describe('hardware fan-out', () => {
  it('hands each unit event to the receivers subscribed to it, and leaves the hub once none is', () => {
    const hub = createInProcessHub();
    const fanout = new HardwareFanout(hub);
    const got: string[] = [];
    const stopA = fanout.add('h1', receiver('a', got));
    const stopB = fanout.add('h1', receiver('b', got));
    fanout.add('h2', receiver('c', got));
    hub.publish('hardware', 'h1', beat('h1', 1));
    hub.publish('hardware', 'h2', beat('h2', 2));
    expect(got).toEqual(['a:hardware:h1:1', 'b:hardware:h1:1', 'c:hardware:h2:2']);
    expect(fanout.topicCount).toBe(2);

    stopA();
    stopA();
    got.length = 0;
    hub.publish('hardware', 'h1', beat('h1', 3));
    expect(got).toEqual(['b:hardware:h1:3']);
    stopB();
    expect(fanout.topicCount).toBe(1);
    got.length = 0;
    hub.publish('hardware', 'h1', beat('h1', 4));
    expect(got).toEqual([]);

    // Subscribed again: a new hub listener, events flow again.
    fanout.add('h1', receiver('d', got));
    hub.publish('hardware', 'h1', beat('h1', 5));
    expect(got).toEqual(['d:hardware:h1:5']);
  });

  it('hands an event to those subscribed when it was published, whoever is added or removed meanwhile', () => {
    const hub = createInProcessHub();
    const fanout = new HardwareFanout(hub);
    const got: string[] = [];
    const stops = new Map<string, () => void>();
    // The first receiver, handed an event, removes the second and adds a fourth.
    stops.set(
      'one',
      fanout.add(
        'h',
        receiver('one', got, () => {
          if (stops.has('four')) return;
          stops.get('two')!();
          stops.set('four', fanout.add('h', receiver('four', got)));
        }),
      ),
    );
    stops.set('two', fanout.add('h', receiver('two', got)));
    stops.set('three', fanout.add('h', receiver('three', got)));
    hub.publish('hardware', 'h', beat('h', 1));
    expect(got).toEqual(['one:hardware:h:1', 'three:hardware:h:1']);
    got.length = 0;
    hub.publish('hardware', 'h', beat('h', 2));
    expect(got).toEqual(['one:hardware:h:2', 'three:hardware:h:2', 'four:hardware:h:2']);
    for (const stop of stops.values()) stop();
    expect(fanout.topicCount).toBe(0);
  });
});
