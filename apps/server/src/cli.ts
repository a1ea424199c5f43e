import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createDetachedHardwareGateway } from './devices/hardware-gateway.js';
import { createDetachedExhibitGateway } from './devices/exhibit-gateway.js';
import { DataDirLockedError } from './db/lock.js';
import type { AppDeps } from './deps.js';
import { AppError } from './lib/app-error.js';
import { createBackgroundTasks } from './lib/background.js';
import { createFileStore } from './lib/file-store.js';
import { systemClock } from './lib/clock.js';
import { loadDotEnv } from './lib/dotenv.js';
import { createLogger } from './lib/logger.js';
import { createMetrics } from './lib/metrics.js';
import { createOutboundFetch } from './lib/outbound-fetch.js';
import { Readiness } from './lib/readiness.js';
import { createDetachedSecretBox } from './lib/secret-box.js';
import { createLogRecorder } from './modules/logging/log-recorder.js';
import { createAuditLog } from './modules/audit/audit.service.js';
import { createMailer } from './mail/mailer.js';
import { createInProcessHub } from './realtime/hub.js';
import { createRedisHub } from './realtime/redis-hub.js';
import { setPlatformAdmin, signOutUserByEmail } from './modules/auth/user-admin.service.js';
import { createUser } from './modules/auth/users.service.js';
import { AUDIT_USAGE, runAuditCli } from './modules/audit/audit-cli.js';
import { BACKUP_USAGE, runBackupCli } from './modules/backup/backup-cli.js';
import { BackupError } from './modules/backup/backup.service.js';
import { GUMBAND_USAGE, runGumbandCli } from './compat/gumband/convert-manifest-cli.js';

const USAGE = `Usage:
  plinth user create --email <email> --password <password> [--first-name <name>] [--last-name <name>] [--platform-admin]
  plinth user sign-out --email <email>
  plinth user platform-admin --email <email> (--grant | --revoke)
${BACKUP_USAGE}
${GUMBAND_USAGE}
${AUDIT_USAGE}

Uses the same DATA_DIR / DATABASE_URL (and .env) as the server. With the embedded database, run it
while the server is stopped (or point both at DATABASE_URL). With REDIS_URL set, running servers
act on sign-out and platform-admin changes at once; without it, within a few seconds.`;

type Output = { write: (text: string) => unknown };

/** One `plinth user …` action: its options and what it does with them. */
type Command = {
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  /** A problem with the options (printed with the usage, exit 2), or null. */
  check: (values: Record<string, string | boolean | undefined>) => string | null;
  run: (deps: AppDeps, values: Record<string, string | boolean | undefined>) => Promise<string>;
};

const COMMANDS: Record<string, Command> = {
  create: {
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'platform-admin': { type: 'boolean', default: false },
    },
    check: (values) => (values.email && values.password ? null : '--email and --password are required'),
    run: async (deps, values) => {
      const user = await createUser(deps, {
        email: String(values.email),
        password: String(values.password),
        firstName: values['first-name'] as string | undefined,
        lastName: values['last-name'] as string | undefined,
        isPlatformAdmin: values['platform-admin'] === true,
      });
      return `Created user ${user.email}${user.isPlatformAdmin ? ' (platform admin)' : ''}.`;
    },
  },
  'sign-out': {
    options: { email: { type: 'string' } },
    check: (values) => (values.email ? null : '--email is required'),
    run: async (deps, values) => {
      const user = await signOutUserByEmail(deps, String(values.email));
      return `Signed ${user.email} out everywhere.`;
    },
  },
  'platform-admin': {
    options: { email: { type: 'string' }, grant: { type: 'boolean', default: false }, revoke: { type: 'boolean', default: false } },
    check: (values) =>
      !values.email ? '--email is required' : values.grant === values.revoke ? 'give exactly one of --grant and --revoke' : null,
    run: async (deps, values) => {
      const user = await setPlatformAdmin(deps, String(values.email), values.grant === true);
      return user.isPlatformAdmin ? `${user.email} is a platform admin.` : `${user.email} is no longer a platform admin.`;
    },
  },
};

/** The `plinth` command line. Answers the exit code. */
export async function runCli(argv: string[], out: Output = process.stdout, err: Output = process.stderr): Promise<number> {
  const [area, action, ...rest] = argv;
  if (area === 'backup' || area === 'restore') return runGuarded(() => runBackupCli(area, argv.slice(1), { out, err }), err);
  if (area === 'gumband') return runGuarded(() => runGumbandCli(argv.slice(1), { out, err }), err);
  if (area === 'audit') return runGuarded(() => runAuditCli(argv.slice(1), { out, err }), err);
  const command = area === 'user' && action ? COMMANDS[action] : undefined;
  if (!command) {
    err.write(`${USAGE}\n`);
    return area === undefined || area === '--help' || area === 'help' ? 0 : 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: command.options, strict: true }));
  } catch (error) {
    err.write(`plinth: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const problem = command.check(values);
  if (problem) {
    err.write(`plinth: ${problem}\n${USAGE}\n`);
    return 2;
  }
  try {
    loadDotEnv();
    const config = loadConfig();
    const logger = createLogger({ level: 'warn', format: config.LOG_FORMAT });
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, holder: 'command line' });
    const hub = config.REDIS_URL ? await createRedisHub(config.REDIS_URL, logger) : createInProcessHub();
    const background = createBackgroundTasks(logger);
    const logs = createLogRecorder({ config, db: database.db, hub, clock: systemClock, logger });
    try {
      await database.migrate();
      const deps: AppDeps = {
        nodeId: randomUUID(),
        config,
        database,
        db: database.db,
        logger,
        background,
        clock: systemClock,
        // Running servers learn of account changes through the hub when they share REDIS_URL.
        hub,
        mailer: createMailer({ transport: config.mailTransport, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger }),
        outbound: createOutboundFetch({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE, allowLoopbackHosts: config.OUTBOUND_ALLOW_LOOPBACK }),
        // No command reads stored secrets; the key (and its file) stay the server's.
        secrets: createDetachedSecretBox(),
        files: await createFileStore(config.fileStore),
        exhibitGateway: createDetachedExhibitGateway(),
        hardwareGateway: createDetachedHardwareGateway(),
        // What a command records is stored before it ends; no lease is read (no console is live here).
        logs,
        audit: createAuditLog({ db: database.db, clock: systemClock }),
        // Counted nowhere and never ready: a command serves no traffic.
        metrics: createMetrics(),
        readiness: new Readiness(),
      };
      out.write(`${await command.run(deps, values)}\n`);
      return 0;
    } finally {
      await background.drain();
      await logs.close();
      await hub.close();
      await database.close();
    }
  } catch (error) {
    return reportFailure(error, err);
  }
}

/** Runs a command, turning its failure into a message and exit code 1. */
async function runGuarded(work: () => Promise<number>, err: Output): Promise<number> {
  try {
    return await work();
  } catch (error) {
    return reportFailure(error, err);
  }
}

/** A known failure (a refused action, bad configuration, a locked data folder) prints its message; anything else its stack. */
function reportFailure(error: unknown, err: Output): number {
  const isKnown = error instanceof AppError || error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof BackupError;
  err.write(`plinth: ${isKnown ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  return 1;
}
