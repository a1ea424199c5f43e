import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_REPORT_URL_PREFIX } from '@plinth/shared';

const Port = z.coerce.number().int().min(0).max(65535);
const OptionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
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
  MAIL_FROM: z.string().default('Plinth <no-reply@plinth.local>'),
  SUPPORT_EMAIL: z.email().default('support@plinth.local'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER_URL: OptionalUrl,
  REPORT_URL_PREFIX: z.string().default(DEFAULT_REPORT_URL_PREFIX),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  COOKIE_SECURE: Bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  ANALYTICS_URL: OptionalUrl,
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
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  return {
    ...c,
    publicUrl,
    dataDir: path.resolve(c.DATA_DIR),
    cookieSecure: c.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    oidcEnabled: Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
    oidcIssuerUrl: c.OIDC_ISSUER_URL ?? 'https://accounts.google.com',
  };
}
