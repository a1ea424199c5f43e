import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { createBackgroundTasks } from './lib/background.js';
import type { Config } from './config.js';
import { openDatabase, pingDatabase } from './db/client.js';
import type { AppDeps } from './deps.js';
import { createExhibitGateway } from './devices/exhibit-gateway.js';
import { startHardwareGateway } from './devices/hardware-gateway.js';
import { createFileStore } from './lib/file-store.js';
import { openHttpListener, type HttpListener } from './lib/http-listener.js';
import { createLogger } from './lib/logger.js';
import { createMetrics } from './lib/metrics.js';
import { Readiness } from './lib/readiness.js';
import { startMetricsListener, type MetricsListener } from './modules/operations/metrics-listener.js';
import { moveLocalFirmwareIntoStore } from './modules/hardware-runtime/firmware-store.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createOutboundFetch, type OutboundFetch } from './lib/outbound-fetch.js';
import { createSecretBox } from './lib/secret-box.js';
import { loadSecretKey } from './lib/secret-key.js';
import { announceMailTransport, createMailer, type Mailer } from './mail/mailer.js';
import { encryptClearContentManagerSecrets } from './modules/content-manager/content-manager-config.service.js';
import { createInProcessHub, type RealtimeHub } from './realtime/hub.js';
import { createRedisHub } from './realtime/redis-hub.js';
import { announceFirstStart } from './modules/auth/first-start.js';
import { createLogRecorder } from './modules/logging/log-recorder.js';
import { startLogRetention } from './modules/logging/log-retention.js';
import { startAuditRetention } from './modules/audit/audit-retention.js';
import { createAuditLog } from './modules/audit/audit.service.js';
import { startNotifications } from './modules/notifications/notifications.js';
import { startScheduler } from './modules/scheduling/schedule-executor.js';
import { startBackupSchedule } from './modules/backup/backup-schedule.js';
import { startNodeLiveness, type NodeLiveness } from './modules/nodes/node-liveness.js';
import { startControlSocket } from './modules/backup/control-socket.js';
import { startGumbandCompat } from './compat/gumband/gumband-compat.js';

export type RunningServer = {
  app: FastifyInstance;
  deps: AppDeps;
  /** Base URL the server listens on (http://host:port). */
  url: string;
  mqttPort: number | null;
  /** The metrics port (METRICS_PORT), or null when /metrics has no port of its own. */
  metricsPort: number | null;
  /** The setup link printed at a first start with no user, if any. */
  setupLink: string | null;
  /**
   * Begins a graceful stop: `/readyz` answers 503 `stopping` at once, while everything else is
   * still served for `ms`, so a load balancer drains the node before it closes.
   */
  drain: (ms: number) => Promise<void>;
  close: () => Promise<void>;
};

export type ServerOverrides = {
  logger?: Logger;
  mailer?: Mailer;
  clock?: Clock;
  /** Tests: an outbound client that also reaches their stand-in services on loopback. */
  outbound?: OutboundFetch;
};

/** Opens the database, migrates, starts the broker and the HTTP server. */
export async function startServer(config: Config, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const startedAt = performance.now();
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const metrics = createMetrics();
  const readiness = new Readiness();
  // The port first: a conflict is told before anything opens, and /readyz says `starting` meanwhile.
  const listener = await openHttpListener({ port: config.PORT, host: config.HOST, readiness });
  let metricsListener: MetricsListener | null = null;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    holder: 'server',
    onError: (error) => logger.warn({ err: error }, 'PostgreSQL connection error'),
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    metrics,
  }).catch(async (error: unknown) => {
    await listener.close();
    throw error;
  });
  let app: FastifyInstance | null = null;
  let hub: RealtimeHub | null = null;
  const mailer =
    overrides.mailer ??
    createMailer({ transport: config.mailTransport, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger });
  let deps: AppDeps | null = null;
  let liveness: NodeLiveness | null = null;
  const stoppers: { stop: () => Promise<void> }[] = [];
  const close = async () => {
    readiness.stopping();
    // Exhibits are told to reconnect (1012) first: with several nodes they are back through the
    // load balancer on another node while this one finishes its requests and writes.
    deps?.exhibitGateway?.goodbye();
    await app?.close();
    await listener.close();
    await metricsListener?.close();
    // A backup under way finishes before the database closes.
    for (const stopper of stoppers.splice(0)) await stopper.stop();
    // Before the gateways: a run under way ends (its steps recorded) while they still deliver.
    await deps?.scheduler?.stop();
    await deps?.notifications?.stopSending();
    await deps?.background.drain();
    await deps?.exhibitGateway?.close();
    // After the gateway: its exhibits are offline ('shutdown'), so nothing is left for others to release.
    await liveness?.stop();
    await deps?.hardwareGateway?.close();
    // After the gateways: the mails their last records cause (exhibits going offline) are queued.
    await deps?.notifications?.stop();
    // After the gateways: their last records (exhibits and boards going offline) are stored too.
    await deps?.logs?.close();
    await hub?.close();
    mailer.close();
    await database.close();
  };
  try {
    await database.migrate();
    hub = config.REDIS_URL ? await createRedisHub(config.REDIS_URL, logger) : createInProcessHub();
    const secrets = createSecretBox(loadSecretKey(config, logger));
    await encryptClearContentManagerSecrets({ db: database.db, secrets, logger });
    const outbound = overrides.outbound ?? createOutboundFetch({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE, allowLoopbackHosts: config.OUTBOUND_ALLOW_LOOPBACK });
    const clock = overrides.clock ?? systemClock;
    const background = createBackgroundTasks(logger);
    const logs = createLogRecorder({ config, db: database.db, hub, clock, logger });
    logs.start();
    const files = await createFileStore(config.fileStore);
    logger.info(`Files are stored on ${files.description}`);
    await moveLocalFirmwareIntoStore({ files, dataDir: config.dataDir, logger });
    const base: Omit<AppDeps, 'exhibitGateway' | 'hardwareGateway'> = { nodeId: randomUUID(), config, database, db: database.db, mailer, hub, clock, logger, background, outbound, secrets, logs, files, metrics, readiness, audit: createAuditLog({ db: database.db, clock }) };
    deps = base as AppDeps;
    // Retention jobs, backups and the Gumband ports stop first (a backup under way finishes).
    stoppers.push(startLogRetention(deps), startAuditRetention(deps));
    deps.hardwareGateway = await startHardwareGateway(deps);
    checkReadiness(deps);
    deps.exhibitGateway = createExhibitGateway(deps);
    liveness = await startNodeLiveness(deps);
    deps.scheduler = startScheduler(deps);
    deps.notifications = startNotifications(deps);
    stoppers.push(...(await startBackups(deps)));
    app = await attachApp(deps, listener);
    if (config.GUMBAND_COMPAT) stoppers.unshift(await startGumbandCompatPorts(deps));
    metricsListener = await startMetricsPort(deps);
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    // With PORT=0 (tests) the links in mail must carry the port actually taken.
    if (!config.PUBLIC_URL && config.PORT === 0) config.publicUrl = `http://localhost:${listener.port}`;
    const setupLink = await announceFirstStart(deps);
    if (!overrides.mailer) announceMailTransport(config, logger);
    readiness.started();
    logger.info(
      `Plinth is ready at ${config.publicUrl} (database: ${database.kind}, started in ${Math.round(performance.now() - startedAt)} ms)`,
    );
    const drain = async (ms: number) => {
      readiness.stopping();
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    };
    return { app, deps, url: `http://${host}:${listener.port}`, mqttPort: deps.hardwareGateway.mqttPort, metricsPort: metricsListener?.port ?? null, setupLink, drain, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** The API on the listener that took the port first (it answered /readyz `starting` until now). */
async function attachApp(deps: AppDeps, listener: HttpListener): Promise<FastifyInstance> {
  let handler: RequestListener | null = null;
  const app = await buildApp(deps, {
    serverFactory: (fastifyHandler) => {
      handler = fastifyHandler;
      return listener.server;
    },
  });
  await app.ready();
  listener.handOver(handler!);
  return app;
}

/** This node's backups: the socket `plinth backup` asks on the embedded database, and BACKUP_CRON. */
async function startBackups(deps: AppDeps): Promise<{ stop: () => Promise<void> }[]> {
  const { database, files, config, clock, logger } = deps;
  const source = { db: database.db, kind: database.kind, files, config };
  const started = database.kind === 'pglite' ? [await startControlSocket({ source, dataDir: config.dataDir, logger })] : [];
  if (config.BACKUP_CRON && database.kind !== 'pglite') {
    logger.warn('BACKUP_CRON backs up the embedded database only; with DATABASE_URL, run `plinth backup` from cron on one machine');
    return started;
  }
  return [...started, startBackupSchedule({ source, config, clock, logger })];
}

/** What `/readyz` checks once the node runs: the database, the broker, and Redis when configured. */
function checkReadiness(deps: AppDeps): void {
  const { readiness, database, hub, hardwareGateway } = deps;
  readiness.check('database', () => pingDatabase(database.db));
  readiness.check('broker', () => hardwareGateway.isBrokerReady());
  if (deps.config.REDIS_URL) readiness.check('redis', () => hub.isLive());
}

/** GUMBAND_COMPAT: the Gumband SDK's ports; closed first on stop, before the gateway. */
async function startGumbandCompatPorts(deps: AppDeps): Promise<{ stop: () => Promise<void> }> {
  const compat = await startGumbandCompat(deps);
  return { stop: compat.close };
}

/** The metrics port, when METRICS_PORT is set. */
async function startMetricsPort(deps: AppDeps): Promise<MetricsListener | null> {
  const { config, metrics, logger } = deps;
  if (config.METRICS_PORT === undefined) return null;
  const listen = { port: config.METRICS_PORT, host: config.METRICS_HOST ?? config.HOST, token: config.METRICS_TOKEN };
  return startMetricsListener({ metrics, logger, listen });
}
