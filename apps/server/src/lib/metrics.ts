import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { BOARD_CHANNELS } from '@plinth/shared';

/**
 * A counter whose hot path is one array increment: the device gateways count every message
 * (some 20,000 a second), so nothing is hashed or allocated per message. The totals are handed
 * to Prometheus when it scrapes. Label values are a closed list; anything else counts as `other`.
 */
export class Tally {
  private readonly counts: number[];
  private readonly reported: number[];
  private readonly index = new Map<string, number>();

  constructor(
    registry: Registry,
    options: { name: string; help: string; labelName: string; values: readonly string[] },
  ) {
    const values = [...options.values, 'other'];
    values.forEach((value, i) => this.index.set(value, i));
    this.counts = values.map(() => 0);
    this.reported = values.map(() => 0);
    const { counts, reported } = this;
    new Counter({
      name: options.name,
      help: options.help,
      labelNames: [options.labelName],
      registers: [registry],
      collect() {
        for (let i = 0; i < values.length; i++) {
          // Every value is reported (zero included), so rate() has a series from the start.
          this.inc({ [options.labelName]: values[i]! }, counts[i]! - reported[i]!);
          reported[i] = counts[i]!;
        }
      },
    });
  }

  /** Counts one for `value` (a value not in the list counts as `other`). */
  inc(value: string): void {
    this.counts[this.index.get(value) ?? this.counts.length - 1]! += 1;
  }
}

/**
 * A histogram without labels whose hot path is a bucket search and three increments: the console
 * fan-out observes every event (some 20,000 a second at saturation), where prom-client's observe
 * allocated and hashed each time (2.4% of the saturated server's busy time). It renders as
 * prom-client's Histogram does: cumulative `_bucket` series with `le`, then `_sum` and `_count`.
 */
export class TallyHistogram {
  /** Observations by bucket, not cumulative; the last is +Inf's. */
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  /** As prom-client's: the series show from the start, and after a reset only once something is observed. */
  private shown = true;

  constructor(
    registry: Registry,
    private readonly options: { name: string; help: string; buckets: readonly number[] },
  ) {
    this.counts = [...options.buckets.map(() => 0), 0];
    const metric = {
      name: options.name,
      help: options.help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => this.values(),
      reset: () => this.reset(),
    };
    registry.registerMetric(metric as unknown as Metric);
  }

  observe(value: number): void {
    const { buckets } = this.options;
    let i = 0;
    while (i < buckets.length && value > buckets[i]!) i += 1;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
    this.shown = true;
  }

  private values() {
    const { name, help } = this.options;
    return { name, help, type: 'histogram', values: this.shown ? this.series() : [], aggregator: 'sum' };
  }

  /** The cumulative buckets, then the sum and the count, as prom-client lists them. */
  private series(): { labels: Record<string, string | number>; value: number; metricName: string }[] {
    const { name, buckets } = this.options;
    const bucket = `${name}_bucket`;
    let below = 0;
    const values = buckets.map((le, i) => {
      below += this.counts[i]!;
      return { labels: { le } as Record<string, string | number>, value: below, metricName: bucket };
    });
    values.push({ labels: { le: '+Inf' }, value: this.count, metricName: bucket });
    values.push({ labels: {}, value: this.sum, metricName: `${name}_sum` }, { labels: {}, value: this.count, metricName: `${name}_count` });
    return values;
  }

  private reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
    this.shown = false;
  }
}

/** The gauges read when Prometheus scrapes, from whatever part of the server knows the number. */
export type GaugeSource =
  | 'exhibitsConnected'
  | 'boardsOnline'
  | 'exhibitsOffline'
  | 'boardsOffline'
  | 'consoleSockets'
  | 'consoleSubscriptions'
  | 'dbPoolWaiting'
  | 'dbPoolConnections'
  | 'mailOutboxDue'
  | 'scheduledEventsDue';

type SourceReading = number | null | Promise<number | null>;

const GAUGES: Record<GaugeSource, { name: string; help: string }> = {
  exhibitsConnected: { name: 'plinth_exhibits_online', help: 'Exhibits whose SDK connection this node holds.' },
  boardsOnline: { name: 'plinth_boards_online', help: 'Boards this node holds online (heard within their heartbeat window).' },
  exhibitsOffline: { name: 'plinth_exhibits_offline', help: 'Exhibits of the whole deployment that are offline (never connected included).' },
  boardsOffline: { name: 'plinth_boards_offline', help: 'Boards of the whole deployment that are offline (never connected included).' },
  consoleSockets: { name: 'plinth_console_sockets', help: 'Console sockets (/ws) open on this node.' },
  consoleSubscriptions: { name: 'plinth_console_subscriptions', help: 'Exhibit and hardware subscriptions of the console sockets on this node.' },
  dbPoolWaiting: { name: 'plinth_db_pool_waiting', help: 'Queries waiting for a free PostgreSQL connection of this node’s pool.' },
  dbPoolConnections: { name: 'plinth_db_pool_connections', help: 'Open PostgreSQL connections of this node’s pool.' },
  mailOutboxDue: { name: 'plinth_mail_outbox_due', help: 'Notification mails due and not yet sent (the whole deployment).' },
  scheduledEventsDue: { name: 'plinth_scheduled_events_due', help: 'Scheduled events whose start has come and that no node has run yet (the whole deployment).' },
};

/** Seconds: from a millisecond to half a minute. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The SDK message types an exhibit sends (docs/protocols/exhibit-sdk.md). */
const EXHIBIT_MESSAGE_TYPES = ['auth', 'ping', 'manifest', 'status', 'opMode', 'ack', 'log', 'event'] as const;

/**
 * This node's metrics in Prometheus' text format (docs/operations.md lists each). Labels are
 * closed lists (channels, message types, route templates, statuses): never a device or user id,
 * so the series stay the same with 10 boards or 10,000.
 */
export type Metrics = {
  registry: Registry;
  /** Board messages received, by channel. */
  boardMessages: Tally;
  /** Board messages dropped because they failed their channel's schema, by channel. */
  boardMessagesInvalid: Tally;
  /** Exhibit SDK messages received, by type. */
  exhibitMessages: Tally;
  /** Exhibit SDK messages refused (not JSON, not the protocol, text PostgreSQL cannot store). */
  exhibitMessagesInvalid: Tally;
  /** HTTP answers by method, route template and status, with their duration. */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** From an event's publication on any node to its first write on a console socket of this node (once an event). */
  fanoutDelay: TallyHistogram;
  /** Time of each database query (PostgreSQL or PGlite). */
  dbQueryDuration: Histogram;
  /** Time a query waited for a connection of the PostgreSQL pool. */
  dbPoolAcquire: Histogram;
  /** Tells a gauge where to read its value at scrape time (null: no value now). */
  setSource: (gauge: GaugeSource, read: () => SourceReading) => void;
  /** The text Prometheus scrapes. */
  render: () => Promise<string>;
  contentType: string;
};

/** A registry with Plinth's metrics and Node's process metrics (CPU, memory, event loop, handles). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const sources = new Map<GaugeSource, () => SourceReading>();
  for (const [key, gauge] of Object.entries(GAUGES) as [GaugeSource, { name: string; help: string }][]) {
    new Gauge({
      ...gauge,
      registers: [registry],
      async collect() {
        const read = sources.get(key);
        // A source that cannot answer now (the database is away) leaves the gauge out of this scrape.
        const value = read ? await Promise.resolve(read()).catch(() => null) : null;
        if (value === null) this.reset();
        else this.set(value);
      },
    });
  }
  const histogram = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
    new Histogram<L>({ name, help, labelNames, buckets: DURATION_BUCKETS, registers: [registry] });
  return {
    registry,
    boardMessages: new Tally(registry, { name: 'plinth_board_messages_total', help: 'Board messages received over MQTT, by channel.', labelName: 'channel', values: BOARD_CHANNELS }),
    boardMessagesInvalid: new Tally(registry, { name: 'plinth_board_messages_invalid_total', help: 'Board messages dropped because they failed their channel’s schema, by channel.', labelName: 'channel', values: BOARD_CHANNELS }),
    exhibitMessages: new Tally(registry, { name: 'plinth_exhibit_messages_total', help: 'Exhibit SDK messages received, by type.', labelName: 'type', values: EXHIBIT_MESSAGE_TYPES }),
    exhibitMessagesInvalid: new Tally(registry, { name: 'plinth_exhibit_messages_invalid_total', help: 'Exhibit SDK messages refused, by reason.', labelName: 'reason', values: ['json', 'schema', 'text'] }),
    httpDuration: histogram('plinth_http_request_duration_seconds', 'HTTP requests by method, route template and status.', ['method', 'route', 'status_code']),
    fanoutDelay: new TallyHistogram(registry, {
      name: 'plinth_realtime_fanout_delay_seconds',
      help: 'From an event’s publication (on any node) to its first write on a console socket of this node, once an event.',
      buckets: DURATION_BUCKETS,
    }),
    dbQueryDuration: histogram('plinth_db_query_duration_seconds', 'Database queries of this node.'),
    dbPoolAcquire: histogram('plinth_db_pool_acquire_seconds', 'Time a PostgreSQL query waited for a connection of this node’s pool.'),
    setSource: (gauge, read) => sources.set(gauge, read),
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
