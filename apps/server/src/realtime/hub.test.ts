import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExhibitEvent } from './hub-messages.js';
import { createInProcessHub, type RealtimeHub } from './hub.js';
import { createRedisHub } from './redis-hub.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const event = (exhibitId: string): ExhibitEvent => ({ type: 'exhibit.presenceChanged', exhibitId, online: true, lastOnlineChange: null });
const hubs: RealtimeHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

function nextEvent(hub: RealtimeHub, exhibitId: string, timeoutMs = 5000): Promise<ExhibitEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no event of ${exhibitId}`)), timeoutMs);
    const off = hub.subscribe('exhibit', exhibitId, (e) => {
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

describe('in-process hub', () => {
  it('delivers to the listeners of a topic only, until they unsubscribe', () => {
    const hub = createInProcessHub();
    const a: ExhibitEvent[] = [];
    const b: ExhibitEvent[] = [];
    const offA = hub.subscribe('exhibit', 'a', (e) => a.push(e));
    hub.subscribe('exhibit', 'b', (e) => b.push(e));
    hub.publish('exhibit', 'a', event('a'));
    offA();
    hub.publish('exhibit', 'a', event('a'));
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(0);
  });
});

describe('Redis hub (several server instances)', () => {
  it('carries an event published on one instance to a listener on another', async () => {
    const logger = pino({ level: 'silent' });
    const one = await createRedisHub(REDIS_URL, logger);
    const two = await createRedisHub(REDIS_URL, logger);
    hubs.push(one, two);
    const exhibitId = Math.random().toString(36).slice(2);
    const received = nextEvent(two, exhibitId);
    // Subscribing is asynchronous in Redis: publish until the other side has it.
    let got: ExhibitEvent | null = null;
    void received.then((e) => (got = e));
    for (let i = 0; i < 50 && !got; i++) {
      one.publish('exhibit', exhibitId, event('x'));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await received).toEqual(event('x'));
  });
});

describe('Redis hub, one topic with two listeners', () => {
  it('keeps the topic for the other listener when one listener is stopped twice', async () => {
    const logger = pino({ level: 'silent' });
    const one = await createRedisHub(REDIS_URL, logger);
    const two = await createRedisHub(REDIS_URL, logger);
    hubs.push(one, two);
    const exhibitId = Math.random().toString(36).slice(2);
    const stopFirst = two.subscribe('exhibit', exhibitId, () => {});
    const received: ExhibitEvent[] = [];
    const second = two.subscribe('exhibit', exhibitId, (e) => received.push(e));
    await Promise.all([stopFirst.ready, second.ready]);
    stopFirst();
    stopFirst();
    // Redis answers a later subscription on the same connection after any unsubscribe sent before it.
    await two.subscribe('exhibit', `${exhibitId}-later`, () => {}).ready;
    // Were the topic's Redis subscription dropped, the second listener would never hear this.
    one.publish('exhibit', exhibitId, event('after'));
    await expect.poll(() => received, { timeout: 5000 }).toEqual([event('after')]);
  });
});
