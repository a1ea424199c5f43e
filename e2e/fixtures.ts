import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { startFakeStrapi, type FakeStrapi } from '../apps/server/src/test/fake-strapi.js';
import { freePort } from '../apps/server/src/test/free-port.js';
import { freeGumbandBasePort } from '../apps/server/src/test/gumband-kit.js';
import { MailCapture, linkIn, type CapturedMail } from '../apps/server/src/test/mail-capture.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../apps/server/src/test/postgres.js';
import { stopChild } from '../apps/server/src/test/stop-child.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * PLINTH_E2E_FROM_SOURCE=1 runs the server from apps/server/src through tsx instead of the build
 * (while developing, when apps/server/dist may be stale); PLINTH_E2E_WEB_DIST points the server at
 * another console build. By default the run uses exactly what `npm run build` produced.
 */
const FROM_SOURCE = process.env.PLINTH_E2E_FROM_SOURCE === '1';
const WEB_DIST = process.env.PLINTH_E2E_WEB_DIST ? path.resolve(process.env.PLINTH_E2E_WEB_DIST) : path.join(ROOT, 'apps/web/dist');
const SERVER_MAIN = path.join(ROOT, FROM_SOURCE ? 'apps/server/src/main.ts' : 'apps/server/dist/main.js');
const NODE_ARGS = FROM_SOURCE ? ['--import', 'tsx'] : [];
const CLI_ARGS = FROM_SOURCE
  ? ['--import', 'tsx', '--input-type=module', '-e', "const { runCli } = await import('./apps/server/src/cli.ts'); process.exitCode = await runCli(process.argv.slice(1));"]
  : [path.join(ROOT, 'apps/server/bin/plinth.js')];
const WEB_INDEX = path.join(WEB_DIST, 'index.html');

/** The platform admin every run creates with the command line. */
export const ADMIN = { email: 'admin@plinth.test', password: 'Adm1nPassword', firstName: 'Ada', lastName: 'Admin' };
/** Password for users the tests create (meets every rule of spec section 5). */
export const USER_PASSWORD = 'Us3rPassword';

export type Plinth = {
  /** http://127.0.0.1:<port>, the console and /api/v1. */
  baseURL: string;
  /** The real SMTP server the Plinth server sends to. */
  mail: MailCapture;
  databaseUrl: string;
  /** The server's output, for failure reports. */
  logFile: string;
  /**
   * A stand-in of an organization's content manager (Strapi is a third party): a small HTTP server
   * answering like Strapi's REST API, which this server may reach (OUTBOUND_ALLOW_LOOPBACK).
   */
  strapi: FakeStrapi;
  /** The first of the Gumband compatibility ports (GUMBAND_COMPAT_BASE_PORT; the mode is on in these runs). */
  gumbandBasePort: number;
};

async function waitForServer(baseURL: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The Plinth server exited (code ${child.exitCode}) during start-up:\n${fs.readFileSync(logFile, 'utf8')}`);
    }
    try {
      const res = await fetch(`${baseURL}/api/v1/auth/login-methods`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The Plinth server did not answer within 60 s:\n${fs.readFileSync(logFile, 'utf8')}`);
}

/** Starts one Plinth (fresh database, SMTP capture, server process, platform admin) for a worker. */
async function startPlinth(): Promise<{ plinth: Plinth; stop: () => Promise<void> }> {
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` before the end-to-end tests.`);
  }
  await ensurePostgres();
  const dbName = uniqueDatabaseName('plinth_e2e');
  await adminQuery(`create database ${dbName}`);
  const dbUrl = databaseUrl(dbName);
  const mail = new MailCapture();
  const smtpUrl = await mail.start();
  const strapi = await startFakeStrapi();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-e2e-'));
  const port = await freePort();
  const gumbandBasePort = await freeGumbandBasePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    PUBLIC_URL: baseURL,
    // Stopped by SIGTERM: no load balancer to drain.
    SHUTDOWN_DRAIN_MS: '0',
    LOG_LEVEL: 'warn',
    // The suites sign in, fail and invite far more than people do (the throttle has its own tests).
    THROTTLE_ACCOUNT_FAILURES: '1000',
    THROTTLE_IP_FAILURES: '1000',
    THROTTLE_MAILS_PER_ADDRESS: '1000',
    THROTTLE_MAILS_PER_SENDER: '1000',
    SUPPORT_EMAIL: 'support@plinth.test',
    // An exhibit offline this long is mailed about (2 minutes in production).
    NOTIFY_OFFLINE_GRACE_MS: '3000',
    OUTBOUND_ALLOW_LOOPBACK: new URL(strapi.url).host,
    // Gumband exhibits (examples/gumband-exhibit) reach this Plinth on ports of their own.
    GUMBAND_COMPAT: '1',
    GUMBAND_COMPAT_BASE_PORT: String(gumbandBasePort),
    WEB_DIST,
  };
  const child = spawn(process.execPath, [...NODE_ARGS, SERVER_MAIN], { cwd: ROOT, env, stdio: ['ignore', log, log] });
  const stop = async () => {
    await stopChild(child, 10_000);
    fs.closeSync(log);
    await mail.close();
    await strapi.close();
    await adminQuery(`drop database if exists ${dbName} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(baseURL, child, logFile);
    await promisify(execFile)(
      process.execPath,
      [...CLI_ARGS, 'user', 'create', '--email', ADMIN.email, '--password', ADMIN.password, '--first-name', ADMIN.firstName, '--last-name', ADMIN.lastName, '--platform-admin'],
      { cwd: ROOT, env },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { plinth: { baseURL, mail, databaseUrl: dbUrl, logFile, strapi, gumbandBasePort }, stop };
}

/** Creates a user with an account and no access anywhere, through the real command line. */
export async function createUserWithCli(plinth: Plinth, email: string, name = { firstName: 'New', lastName: 'Person' }): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [...CLI_ARGS, 'user', 'create', '--email', email, '--password', USER_PASSWORD, '--first-name', name.firstName, '--last-name', name.lastName],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: plinth.databaseUrl } },
  );
}

type WorkerFixtures = { plinth: Plinth };
type TestFixtures = {
  /** Signs in through the login form and waits for home. */
  signIn: (page: Page, email: string, password: string) => Promise<void>;
  /** A REST client for /api/v1 signed in as the given user (the platform admin by default), for arranging data. */
  apiAs: (email?: string, password?: string) => Promise<Api>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  plinth: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { plinth, stop } = await startPlinth();
      try {
        await use(plinth);
      } finally {
        await stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ plinth }, use) => {
    await use(plinth.baseURL);
  },
  // eslint-disable-next-line no-empty-pattern
  signIn: async ({}, use) => {
    await use(signIn);
  },
  apiAs: async ({ plinth }, use) => {
    const opened: APIRequestContext[] = [];
    await use(async (email = ADMIN.email, password = ADMIN.password) => {
      const api = await openApi(plinth.baseURL, email, password);
      opened.push(api.context);
      return api;
    });
    for (const context of opened) await context.dispose();
  },
});

export { expect };

/** Signs in through the login screen (spec: email, password, Log In; the page reloads to home). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Logs out through the top-bar menu (spec: the menu entry Logout). */
export async function logOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Opens the top-bar user menu (profile picture). */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: /account|user menu|profile/i }).click();
}

/** A short unique name, so tests never depend on each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 8)}`;
}

/** A unique lowercase email under plinth.test. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@plinth.test`;
}

export type Api = {
  context: APIRequestContext;
  get: <T>(url: string, params?: Record<string, string>) => Promise<T>;
  post: <T>(url: string, data?: unknown) => Promise<T>;
  put: <T>(url: string, data?: unknown) => Promise<T>;
  delete: <T>(url: string) => Promise<T>;
};

async function openApi(baseURL: string, email: string, password: string): Promise<Api> {
  const context = await playwrightRequest.newContext({ baseURL: `${baseURL}/api/v1/` });
  const call = async <T>(method: 'get' | 'post' | 'put' | 'delete', url: string, data?: unknown, params?: Record<string, string>) => {
    const res = await context[method](url.replace(/^\//, ''), { data, params });
    if (!res.ok()) throw new Error(`${method.toUpperCase()} ${url} answered ${res.status()}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  await call('post', '/auth/user/login', { email, password });
  return {
    context,
    get: (url, params) => call('get', url, undefined, params),
    post: (url, data) => call('post', url, data),
    put: (url, data) => call('put', url, data),
    delete: (url) => call('delete', url),
  };
}

type Named = { id: string; name: string };

/** Arranges an organization through the API as the platform admin. */
export async function createOrganization(api: Api, name: string): Promise<Named> {
  return api.post<Named>('/org-management/organization', { name });
}

/** Arranges a site through the API. */
export async function createSite(api: Api, organizationId: string, name: string): Promise<Named> {
  return api.post<Named>('/org-management/site', { name, organizationId });
}

/**
 * Gives a new `email` a role on an organization or a site through the API, waits for the
 * invitation mail and creates the account through its link (the call the create-account screen
 * makes). The user then signs in with USER_PASSWORD.
 */
export async function inviteUser(
  api: Api,
  mail: MailCapture,
  scope: { organizationId: string } | { siteId: string },
  email: string,
  role: 'manager' | 'developer' | 'viewer',
  name = { firstName: 'Test', lastName: 'User' },
): Promise<void> {
  if ('organizationId' in scope) {
    await api.post('/org-management/permission/organization', { organizationId: scope.organizationId, email, role });
  } else {
    await api.post('/org-management/permission/site', { siteId: scope.siteId, email, role });
  }
  const invitation = await mail.waitFor(email, (m) => /invited/i.test(m.subject));
  const resetUrlId = linkIn(invitation).searchParams.get('id');
  await api.post('/auth/user/generic', { ...name, password: USER_PASSWORD, resetUrlId });
}

export { linkIn, type CapturedMail };
