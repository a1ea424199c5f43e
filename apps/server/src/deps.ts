import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { ExhibitGateway, HardwareGateway } from './devices/ports.js';
import type { BackgroundTasks } from './lib/background.js';
import type { Clock } from './lib/clock.js';
import type { FileStore } from './lib/file-store.js';
import type { Metrics } from './lib/metrics.js';
import type { OutboundFetch } from './lib/outbound-fetch.js';
import type { Readiness } from './lib/readiness.js';
import type { SecretBox } from './lib/secret-box.js';
import type { Mailer } from './mail/mailer.js';
import type { AuditLog } from './modules/audit/ports.js';
import type { LogRecorder } from './modules/logging/ports.js';
import type { Notifications } from './modules/notifications/ports.js';
import type { Scheduler } from './modules/scheduling/ports.js';
import type { RealtimeHub } from './realtime/hub.js';

/** The external systems every service reaches through, each behind its seam. */
export type AppDeps = {
  /** This server process's id among the nodes on the database (server_nodes), new at every start. */
  nodeId: string;
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  hub: RealtimeHub;
  clock: Clock;
  logger: Logger;
  /** Work done after the answer went out (mail whose timing must not tell anything). */
  background: BackgroundTasks;
  /** HTTP to addresses users configure (the content manager), with the SSRF rules. */
  outbound: OutboundFetch;
  /** Encrypts stored secrets (content-manager passwords) with SECRET_KEY. */
  secrets: SecretBox;
  /** Exhibit SDK connections (set by startServer before the HTTP side starts). */
  exhibitGateway: ExhibitGateway;
  /** MQTT broker and board protocol (set by startServer before the HTTP side starts). */
  hardwareGateway: HardwareGateway;
  /** The one log recorder: what devices log and what the server saw happen to them, stored in batches and pushed live while leased. */
  logs: LogRecorder;
  /** The audit log: every change a person or an API key made, appended to its organization's hash chain (modules/audit). */
  audit: AuditLog;
  /** Stored files (exhibit files, firmware): local disk or an S3-compatible store (FILE_STORE_URL). */
  files: FileStore;
  /** This node's metrics (docs/operations.md): the parts that know a number count it or tell where to read it. */
  metrics: Metrics;
  /** Whether this node should get traffic (`/readyz`): starting, running with its checks, or stopping. */
  readiness: Readiness;
  /** This node's scheduled-event executor (started by startServer; absent in apps built without it). */
  scheduler?: Scheduler;
  /** This node's notification triggers and mail outbox sender (started by startServer; absent in apps built without it). */
  notifications?: Notifications;
};
