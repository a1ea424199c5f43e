import { pino, type Logger } from 'pino';
import { inject } from 'vitest';
import { loadConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { createOutboundFetch } from '../lib/outbound-fetch.js';
import { newSecretKeyText } from '../lib/secret-box.js';
import { createUser, type NewUser } from '../modules/auth/users.service.js';
import { startServer, type RunningServer } from '../server.js';
import { MailCapture } from './mail-capture.js';
import { adminQuery, databaseUrl, uniqueDatabaseName } from './postgres.js';
import { TestClient } from './test-client.js';

export type TestServer = RunningServer & {
  mail: MailCapture;
  databaseUrl: string;
  /** A new client (cookie jar), signed out. */
  client: () => TestClient;
  /** Creates a user with an account directly (as the CLI would) and answers a signed-in client. */
  signUp: (user?: Partial<NewUser>) => Promise<{ client: TestClient; email: string; password: string; id: string }>;
  /** Signs an existing user in. */
  signIn: (email: string, password: string) => Promise<TestClient>;
  stop: () => Promise<void>;
};

let counter = 0;
/** One SECRET_KEY for every server of a test file, so instances sharing a database read each other's secrets. */
const TEST_SECRET_KEY = newSecretKeyText();

/** A fresh database copied from the run's template, dropped by the returned function. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = uniqueDatabaseName('plinth_t');
  await adminQuery(`create database ${name} template ${inject('templateDatabase')}`);
  return { url: databaseUrl(name), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** How a test server is started beyond its configuration. */
export type TestServerOptions = {
  /**
   * An existing database (e.g. another test server's `databaseUrl`) instead of a fresh one, for
   * several instances of one deployment. It is left in place when this server stops.
   */
  databaseUrl?: string;
  /** The server's clock (e.g. a fake one a test moves forward); the system clock by default. */
  clock?: Clock;
  /** The server's logger (e.g. one writing to a capture), instead of a silent one. */
  logger?: Logger;
  /**
   * Loopback `host:port` pairs the server may fetch (stand-ins of external services, e.g. a fake
   * Strapi). Every other loopback address stays refused, as in production.
   */
  allowLoopbackHosts?: string[];
};

/**
 * The real server on ephemeral ports, against a fresh PostgreSQL database, with a real SMTP
 * capture. `env` overrides configuration.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  const mail = new MailCapture();
  const smtpUrl = await mail.start();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    SMTP_URL: smtpUrl,
    LOG_LEVEL: 'silent',
    // Tests sign in, fail and invite far more than people do; the throttle's own tests set the budgets.
    THROTTLE_ACCOUNT_FAILURES: '1000',
    THROTTLE_IP_FAILURES: '1000',
    THROTTLE_MAILS_PER_ADDRESS: '1000',
    THROTTLE_MAILS_PER_SENDER: '1000',
    WEB_DIST: '/nonexistent',
    SECRET_KEY: TEST_SECRET_KEY,
    ...env,
  });
  const outbound = createOutboundFetch({
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    allowLoopbackHosts: options.allowLoopbackHosts,
  });
  const server = await startServer(config, { logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), clock: options.clock, outbound });
  const signIn = async (email: string, password: string) => {
    const client = new TestClient(server.url);
    const res = await client.post('/auth/user/login', { email, password });
    if (res.status !== 200) throw new Error(`sign in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return client;
  };
  return {
    ...server,
    mail,
    databaseUrl: database.url,
    client: () => new TestClient(server.url),
    signIn,
    signUp: async (user = {}) => {
      counter += 1;
      const email = user.email ?? `user${counter}.${Math.random().toString(36).slice(2, 7)}@example.com`;
      const password = user.password ?? 'Passw0rd!';
      const row = await createUser(server.deps, {
        email,
        password,
        firstName: user.firstName ?? 'Test',
        lastName: user.lastName ?? `User${counter}`,
        isPlatformAdmin: user.isPlatformAdmin ?? false,
      });
      return { client: await signIn(email, password), email: row.email, password, id: row.id };
    },
    stop: async () => {
      await server.close();
      await mail.close();
      await database.drop();
    },
  };
}
