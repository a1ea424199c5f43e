import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RealtimeEvent } from '@plinth/shared';
import { createInProcessHub, type RealtimeHub } from './hub.js';

const CHANNEL_PREFIX = 'plinth:rt:';

/**
 * The hub for several server instances: every event goes through Redis pub/sub, so a socket on
 * any instance receives events produced on any other. Each instance subscribes to a Redis
 * channel only while one of its sockets listens to that topic.
 */
export async function createRedisHub(url: string, logger: Logger): Promise<RealtimeHub> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = createInProcessHub();
  const listening = new Map<string, number>();

  subscriber.on('message', (channel: string, payload: string) => {
    try {
      local.publish(channel.slice(CHANNEL_PREFIX.length), JSON.parse(payload) as RealtimeEvent);
    } catch (error) {
      logger.warn({ err: error, channel }, 'dropped a malformed realtime message from Redis');
    }
  });

  return {
    publish(topic, event) {
      publisher.publish(CHANNEL_PREFIX + topic, JSON.stringify(event)).catch((error: unknown) => {
        logger.error({ err: error, topic }, 'could not publish a realtime event to Redis');
      });
    },
    subscribe(topic, listener) {
      const off = local.subscribe(topic, listener);
      const count = (listening.get(topic) ?? 0) + 1;
      listening.set(topic, count);
      if (count === 1) void subscriber.subscribe(CHANNEL_PREFIX + topic);
      return () => {
        off();
        const left = (listening.get(topic) ?? 1) - 1;
        if (left > 0) {
          listening.set(topic, left);
          return;
        }
        listening.delete(topic);
        void subscriber.unsubscribe(CHANNEL_PREFIX + topic);
      };
    },
    close: async () => {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
