import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ERROR_MESSAGES, type ErrorCode } from '@plinth/shared';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createDetachedHardwareGateway } from './devices/hardware-gateway.js';
import { createDetachedExhibitGateway } from './devices/exhibit-gateway.js';
import { DataDirLockedError } from './db/lock.js';
import type { AppDeps } from './deps.js';
import { AppError } from './lib/app-error.js';
import { systemClock } from './lib/clock.js';
import { createMailer } from './mail/mailer.js';
import { createInProcessHub } from './realtime/hub.js';
import { createUser } from './modules/auth/users.service.js';

const USAGE = `Usage:
  plinth user create --email <email> --password <password> [--first-name <name>] [--last-name <name>] [--platform-admin]

Uses the same DATA_DIR / DATABASE_URL as the server. With the embedded database, run it while the
server is stopped (or point both at DATABASE_URL).`;

/** The `plinth` command line. Answers the exit code. */
export async function runCli(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  const [area, action, ...rest] = argv;
  if (area !== 'user' || action !== 'create') {
    err.write(`${USAGE}\n`);
    return area === undefined || area === '--help' || area === 'help' ? 0 : 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        'platform-admin': { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    err.write(`plinth: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!values.email || !values.password) {
    err.write(`plinth: --email and --password are required\n${USAGE}\n`);
    return 2;
  }
  try {
    const config = loadConfig();
    const logger = pino({ level: 'warn' });
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, holder: 'command line' });
    try {
      await database.migrate();
      const deps: AppDeps = {
        config,
        database,
        db: database.db,
        logger,
        clock: systemClock,
        hub: createInProcessHub(),
        mailer: createMailer({ from: config.MAIL_FROM, logger }),
        exhibitGateway: createDetachedExhibitGateway(),
        hardwareGateway: createDetachedHardwareGateway(),
      };
      const user = await createUser(deps, {
        email: values.email,
        password: values.password,
        firstName: values['first-name'],
        lastName: values['last-name'],
        isPlatformAdmin: values['platform-admin'],
      });
      out.write(`Created user ${user.email}${user.isPlatformAdmin ? ' (platform admin)' : ''}.\n`);
      return 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof AppError) {
      err.write(`plinth: ${ERROR_MESSAGES[error.code as ErrorCode] ?? error.message}\n`);
      return 1;
    }
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      err.write(`plinth: ${error.message}\n`);
      return 1;
    }
    err.write(`plinth: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
