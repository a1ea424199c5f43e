import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_REPORT_URL_PREFIX, isTimeZone } from '@plinth/shared';
import { isStoreKeySegment } from './lib/file-store-contract.js';
import type { FileStoreSettings } from './lib/file-store.js';
import { parseSecretKey } from './lib/secret-box.js';
import { isCronExpression } from './lib/cron.js';

const Port = z.coerce.number().int().min(0).max(65535);
const OptionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();
const Budget = z.coerce.number().int().min(1);

/** An address, a CIDR range, or a name proxy-addr knows (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** A comma-separated list of proxy addresses; empty trusts none. */
const ProxyList = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    for (const entry of entries.filter((e) => !isProxyAddress(e))) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal` });
    }
    return entries;
  });

/** A comma-separated list of loopback `host:port` pairs (`127.0.0.1:1337`, `[::1]:1337`, `localhost:1337`). */
const LoopbackHostList = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const entries = value.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
    for (const entry of entries.filter((e) => !/^(127(\.\d{1,3}){3}|\[::1\]|localhost):\d{1,5}$/.test(e))) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not a loopback host:port such as 127.0.0.1:1337` });
    }
    return entries;
  });

/** `s3://bucket` or `s3://bucket/prefix`: a bucket name as S3 allows it, a prefix of safe key segments. */
const FileStoreUrl = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value);
    const bucket = match?.[1] ?? '';
    const segments = (match?.[2] ?? '').split('/').filter(Boolean);
    if (!match || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || !segments.every(isStoreKeySegment)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be s3://bucket or s3://bucket/prefix (a bucket of 3 to 63 lowercase letters, digits, dots and hyphens; a prefix of letters, digits, ".", "_" and "-" separated by "/")',
      });
      return z.NEVER;
    }
    return { bucket, prefix: segments.map((s) => `${s}/`).join('') };
  })
  .optional();

const Bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** Every setting Plinth reads, with its default. docs/configuration.md lists them for people. */
const ConfigSchema = z.object({
  PORT: Port.default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: OptionalUrl,
  MQTT_PORT: Port.default(1883),
  MQTT_HOST: z.string().default('0.0.0.0'),
  MQTT_URL: OptionalUrl,
  REDIS_URL: OptionalUrl,
  PUBLIC_URL: OptionalUrl,
  SMTP_URL: OptionalUrl,
  /** Where mail goes: `smtp` (needs SMTP_URL) or `log`; unset, see `mailTransport`. */
  MAIL_TRANSPORT: z.enum(['smtp', 'log']).optional(),
  MAIL_FROM: z.string().default('Plinth <no-reply@plinth.local>'),
  SUPPORT_EMAIL: z.email().default('support@plinth.local'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER_URL: OptionalUrl,
  REPORT_URL_PREFIX: z.string().default(DEFAULT_REPORT_URL_PREFIX),
  /** Proxies whose X-Forwarded-For is believed (docs/security-throttling.md). */
  TRUST_PROXY: ProxyList,
  /** Failed sign-ins of one account before it waits. */
  THROTTLE_ACCOUNT_FAILURES: Budget.default(5),
  /** Failed sign-ins and wrong account links from one client address before it waits. */
  THROTTLE_IP_FAILURES: Budget.default(50),
  /** Reset and invitation mails to one address in an hour before it waits. */
  THROTTLE_MAILS_PER_ADDRESS: Budget.default(3),
  /** Reset and invitation mails asked from one client address, or invitations by one user, in an hour before it waits. */
  THROTTLE_MAILS_PER_SENDER: Budget.default(30),
  /** Calls one API key may make in a minute, counted across every node; past it 429 with Retry-After (docs/security.md, API keys). */
  API_KEY_RATE_LIMIT: Budget.max(1_000_000).default(600),
  COOKIE_SECURE: Bool,
  /** Days of logs and report events kept; older days are dropped whole (docs/architecture.md, "Logs and reports"). */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often each node looks for due scheduled events, in ms (modules/scheduling/schedule-executor.ts). */
  SCHEDULER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** How long a node's claim on a running event lasts without renewal; a node that died leaves it to expire (ms). */
  SCHEDULER_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** How often each node looks for notification mails due in the outbox, in ms (modules/notifications/mail-sender.ts). */
  MAIL_OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** How long an exhibit stays offline before its users are told (ms); also the window of one offline and one back-online mail. */
  NOTIFY_OFFLINE_GRACE_MS: z.coerce.number().int().min(100).max(86_400_000).default(120_000),
  /** How long a query waits for a PostgreSQL connection before the request answers 503 (ms). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /** How often each node records that it is alive (ms); see NODE_LOST_AFTER_MS. */
  NODE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** How long a node may stay silent before the others take it for dead and mark the exhibits it held offline (ms). */
  NODE_LOST_AFTER_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
  /** When the embedded database is backed up by itself, as a cron expression ("0 3 * * *": at 03:00 every day, TIME_ZONE); unset, never. */
  BACKUP_CRON: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === '' || isCronExpression(v), { message: 'must be a cron expression, such as "0 3 * * *" (03:00 every day)' }),
  /** How many scheduled backups are kept; older ones are deleted. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** Where scheduled backups go; default DATA_DIR/backups. */
  BACKUP_DIR: z.string().trim().optional(),
  /** The time zone of sites that set none (IANA name); default: the server machine's. */
  TIME_ZONE: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === '' || isTimeZone(v), { message: 'must be an IANA time zone name, such as Europe/Paris' }),
  /** The largest file an upload may carry, in bytes (default 2 GiB); larger answers 413. */
  MAX_FILE_BYTES: z.coerce.number().int().min(1).default(DEFAULT_MAX_FILE_BYTES),
  /** Where stored files go: unset, local disk under DATA_DIR/store; `s3://bucket/prefix` for an S3-compatible store. */
  FILE_STORE_URL: FileStoreUrl,
  /** A non-AWS S3-compatible store's address, e.g. http://minio.internal:9000. */
  S3_ENDPOINT: OptionalUrl.refine((v) => v === undefined || /^https?:\/\//i.test(v), { message: 'must be an http:// or https:// URL' }),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addresses (endpoint/bucket/key); default true with S3_ENDPOINT, false for AWS. */
  S3_FORCE_PATH_STYLE: Bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (readable lines) or `json` (one JSON object a line); unset: pretty on a terminal, JSON otherwise (lib/logger.ts). */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** Serves /metrics on its own port (docs/operations.md); unset, /metrics is off unless METRICS_TOKEN is set. */
  METRICS_PORT: Port.optional(),
  /** The address the metrics port listens on; default: HOST. */
  METRICS_HOST: z.string().optional(),
  /** A bearer token Prometheus sends for /metrics; without METRICS_PORT, /metrics is then served on PORT behind it. */
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters (e.g. from `openssl rand -hex 24`)' }).optional(),
  /** On SIGTERM, how long /readyz answers 503 (`stopping`) while requests are still served, before the node closes (ms). */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** Gumband compatibility (docs/gumband-compatibility.md): serves the Gumband exhibit SDK on its own ports. Off by default. */
  GUMBAND_COMPAT: Bool.default(false),
  /** The first of the Gumband ports (auth; ws +2, reporting +3, hardware +4, exhibit +6, logging +7, content +8, notifications +10). */
  GUMBAND_COMPAT_BASE_PORT: z.coerce.number().int().min(1).max(65525, { message: 'must leave room for the ten ports above it' }).default(3000),
  WEB_DIST: z.string().optional(),
  ANALYTICS_URL: OptionalUrl,
  /** Let the server fetch private (LAN) addresses a user configures, e.g. a content manager on the venue network. */
  OUTBOUND_ALLOW_PRIVATE: Bool.default(false),
  /** Loopback `host:port` pairs the server may fetch: a content manager on the same machine (`127.0.0.1:1337`). */
  OUTBOUND_ALLOW_LOOPBACK: LoopbackHostList,
  /** Encrypts stored secrets; unset, DATA_DIR/secret.key (lib/secret-key.ts). */
  SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || parseSecretKey(v) !== null, {
      message: 'must be 32 random bytes written as base64 (44 characters) or hex (64 characters), e.g. from `openssl rand -base64 32`',
    }),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** PUBLIC_URL, or http://localhost:$PORT. Links in mail start with it. */
  publicUrl: string;
  /** Absolute data directory. */
  dataDir: string;
  /** Cookies are Secure unless the public URL is plain http (or COOKIE_SECURE says otherwise). */
  cookieSecure: boolean;
  /** Single sign-on is offered when a client id and secret are configured. */
  oidcEnabled: boolean;
  oidcIssuerUrl: string;
  /**
   * MAIL_TRANSPORT, else `smtp` with SMTP_URL, else `log` on the embedded default, else (PostgreSQL
   * without SMTP_URL) `disabled`: nothing is sent and no mail text, link included, is logged.
   */
  mailTransport: 'smtp' | 'log' | 'disabled';
  /** SECRET_KEY decoded; undefined when unset. */
  secretKey: Buffer | undefined;
  /** The file store: FILE_STORE_URL with the S3_* settings, else local disk under DATA_DIR/store. */
  fileStore: FileStoreSettings;
};

export class ConfigError extends Error {}

/** Reads and validates the configuration once; a bad value names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(ConfigSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  if (c.MAIL_TRANSPORT === 'smtp' && !c.SMTP_URL) {
    throw new ConfigError('Invalid configuration: MAIL_TRANSPORT: smtp needs SMTP_URL');
  }
  checkGumbandPorts(c);
  const dataDir = path.resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  return {
    ...c,
    publicUrl,
    dataDir,
    cookieSecure: c.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    oidcEnabled: Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
    oidcIssuerUrl: c.OIDC_ISSUER_URL ?? 'https://accounts.google.com',
    mailTransport: c.MAIL_TRANSPORT ?? (c.SMTP_URL ? 'smtp' : c.DATABASE_URL ? 'disabled' : 'log'),
    secretKey: c.SECRET_KEY === undefined ? undefined : (parseSecretKey(c.SECRET_KEY) ?? undefined),
    fileStore: fileStoreSettings(c, { dataDir, env: cleaned }),
  };
}

/**
 * The Gumband ports (GUMBAND_COMPAT_BASE_PORT to +10) must not take PORT, METRICS_PORT or
 * MQTT_PORT: the SDK's auth port is 3000, Plinth's default PORT, so one of them must move.
 */
function checkGumbandPorts(c: z.infer<typeof ConfigSchema>): void {
  if (!c.GUMBAND_COMPAT) return;
  const base = c.GUMBAND_COMPAT_BASE_PORT;
  const taken = (['PORT', 'METRICS_PORT', 'MQTT_PORT'] as const).find((name) => {
    const port = c[name];
    return port !== undefined && port >= base && port <= base + 10;
  });
  if (taken) {
    throw new ConfigError(
      `Invalid configuration: ${taken}: ${c[taken]} is one of the Gumband compatibility ports (${base}-${base + 10}); move ${taken} (e.g. PORT=8080) or GUMBAND_COMPAT_BASE_PORT`,
    );
  }
}

const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

/**
 * The file store the settings name. An S3_* setting without an s3:// FILE_STORE_URL is refused:
 * the nodes would each keep files on their own disk while the operator meant them to share.
 */
function fileStoreSettings(
  c: z.infer<typeof ConfigSchema>,
  input: { dataDir: string; env: Record<string, string | undefined> },
): FileStoreSettings {
  if (!c.FILE_STORE_URL) {
    const stray = S3_SETTINGS.find((name) => input.env[name] !== undefined);
    if (stray) throw new ConfigError(`Invalid configuration: ${stray}: is only read with FILE_STORE_URL=s3://bucket/prefix`);
    return { kind: 'local', root: path.join(input.dataDir, 'store') };
  }
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
    const missing = c.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    throw new ConfigError(`Invalid configuration: ${missing}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together (or neither, for the AWS default credentials)`);
  }
  return {
    kind: 's3',
    ...c.FILE_STORE_URL,
    region: c.S3_REGION,
    endpoint: c.S3_ENDPOINT,
    credentials: c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: c.S3_FORCE_PATH_STYLE ?? c.S3_ENDPOINT !== undefined,
  };
}
