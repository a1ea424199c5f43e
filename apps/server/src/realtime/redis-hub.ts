import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { hubSubscription, hubTopic, TopicListeners, type RealtimeHub } from './hub.js';

const CHANNEL_PREFIX = 'plinth:rt:';

/**
 * Whether both Redis connections are up. ioredis reconnects by itself and subscribes again to
 * every channel it had; until then events of other nodes (and this node's own, which go through
 * Redis too) do not arrive, so consoles are told (`realtime.status`) and read again afterwards.
 * The link reads live again only once `confirm` answers: a PING on the subscriber, which Redis
 * answers after the subscriptions ioredis sent again on reconnect (so nothing published after
 * the announcement is missed).
 */
function watchLink(clients: Redis[], confirm: () => Promise<unknown>, logger: Logger) {
  const listeners = new Set<(live: boolean) => void>();
  const up = () => clients.every((client) => client.status === 'ready');
  let live = up();
  let confirming = false;
  const announce = (now: boolean) => {
    live = now;
    if (live) logger.info('The link to Redis is back: realtime events flow between the nodes again');
    else logger.warn('Lost the link to Redis: realtime events may be missing until it is back (reconnecting)');
    for (const listener of listeners) listener(live);
  };
  const check = () => {
    if (!up()) {
      if (live) announce(false);
      return;
    }
    if (live || confirming) return;
    confirming = true;
    confirm().then(
      () => {
        confirming = false;
        if (up() && !live) announce(true);
      },
      // No answer (the link dropped again, or a slow reply timed out): try again shortly.
      () => {
        confirming = false;
        setTimeout(check, 500).unref();
      },
    );
  };
  const events = ['ready', 'close', 'end', 'reconnecting'] as const;
  for (const client of clients) for (const event of events) client.on(event, check);
  // The loss is told once (above); each failed reconnect's error would otherwise be printed by
  // ioredis as an unhandled error event.
  const onError = (error: Error) => logger.debug({ err: error }, 'Redis connection error');
  for (const client of clients) client.on('error', onError);
  return {
    isLive: () => live,
    onChange: (listener: (live: boolean) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => {
      listeners.clear();
      for (const client of clients) for (const event of events) client.off(event, check);
      for (const client of clients) client.off('error', onError);
    },
  };
}

/**
 * The hub for several server instances: every event goes through Redis pub/sub, so a socket on
 * any instance receives events produced on any other. Each instance subscribes to a Redis
 * channel only while one of its sockets listens to that topic.
 */
export async function createRedisHub(url: string, logger: Logger): Promise<RealtimeHub> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = new TopicListeners();
  const liveness = watchLink([publisher, subscriber], () => subscriber.ping(), logger);
  /** Listeners per topic on this instance, and the Redis subscription they share. */
  const listening = new Map<string, { count: number; ready: Promise<void> }>();

  subscriber.on('message', (channel: string, payload: string) => {
    try {
      // Only this hub's publish writes these channels, typed by the topic's kind: `<ms> <json>`
      // (a node of an older version sends the JSON alone; its time is then the arrival's).
      const space = payload.startsWith('{') ? -1 : payload.indexOf(' ');
      const publishedAt = space > 0 ? Number(payload.slice(0, space)) : undefined;
      local.deliver(channel.slice(CHANNEL_PREFIX.length), JSON.parse(payload.slice(space + 1)), publishedAt);
    } catch (error) {
      logger.warn({ err: error, channel }, 'dropped a malformed realtime message from Redis');
    }
  });

  return {
    publish(kind, id, message) {
      const topic = hubTopic(kind, id);
      publisher.publish(CHANNEL_PREFIX + topic, `${Date.now()} ${JSON.stringify(message)}`).catch((error: unknown) => {
        logger.error({ err: error, topic }, 'could not publish a realtime event to Redis');
      });
    },
    subscribe(kind, id, listener) {
      const topic = hubTopic(kind, id);
      const off = local.add(topic, listener);
      let entry = listening.get(topic);
      if (entry) entry.count += 1;
      else {
        const ready = subscriber.subscribe(CHANNEL_PREFIX + topic).then(() => undefined);
        // A failed subscription is reported to whoever awaits `ready`; it must not go unhandled.
        ready.catch((error: unknown) => logger.error({ err: error, topic }, 'could not subscribe to a realtime topic in Redis'));
        entry = { count: 1, ready };
        listening.set(topic, entry);
      }
      return hubSubscription(() => {
        off();
        const current = listening.get(topic);
        if (!current) return;
        current.count -= 1;
        if (current.count > 0) return;
        listening.delete(topic);
        void subscriber.unsubscribe(CHANNEL_PREFIX + topic);
      }, entry.ready);
    },
    isLive: () => liveness.isLive(),
    onLiveChange: (listener) => liveness.onChange(listener),
    close: async () => {
      liveness.stop();
      local.clear();
      subscriber.disconnect();
      // QUIT waits for the publishes already sent (a command line announces a change, then closes).
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
