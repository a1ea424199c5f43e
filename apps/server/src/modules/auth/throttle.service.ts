import { isIPv6 } from 'node:net';
import { normalizeEmail, type ErrorCode } from '@plinth/shared';
import type { Config } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { ipv6Groups } from '../../lib/ip-address.js';
import {
  blockThrottleKey,
  deleteQuietThrottles,
  deleteThrottle,
  findThrottle,
  returnThrottleAttempt,
  takeThrottleAttempt,
  type ThrottleCount,
} from './throttle.repository.js';

/**
 * Throttling of sign-in and of calls that send mail (docs/security-throttling.md). State lives
 * in the `auth_throttles` table so that every server node counts the same attempts.
 */
export type ThrottleDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Share of attempts that also delete long-quiet keys, so sprayed emails do not pile up. */
const PRUNE_CHANCE = 0.01;

export type ThrottleRule = ThrottleCount & {
  /** Key prefix in the table. */
  scope: string;
  /** What the key's id is: a client address (counted by network), an email, or a user id. */
  by: 'address' | 'email' | 'user';
  /** The wait after the last free attempt; each further counted attempt doubles it. */
  firstWaitMs: number;
  /** The longest wait. */
  maxWaitMs: number;
  /** The refusal's first sentence; the wait follows it. */
  refusal: string;
};

export type ThrottleKey = { rule: ThrottleRule; id: string };

const FAILED_SIGN_INS = 'Too many failed attempts.';
const MAIL_REQUESTS = 'Too many emails were requested.';

/** The rules, with the budgets of the configuration. */
export function throttleRules(config: Pick<Config, 'THROTTLE_ACCOUNT_FAILURES' | 'THROTTLE_IP_FAILURES' | 'THROTTLE_MAILS_PER_ADDRESS' | 'THROTTLE_MAILS_PER_SENDER'>) {
  const failures = { quietMs: 15 * MINUTE, firstWaitMs: SECOND, maxWaitMs: 15 * MINUTE, refusal: FAILED_SIGN_INS };
  const mails = { quietMs: HOUR, firstWaitMs: MINUTE, maxWaitMs: HOUR, refusal: MAIL_REQUESTS };
  return {
    /** Failed sign-ins on one account (email), whether or not it exists. */
    account: { ...failures, scope: 'account', by: 'email', free: config.THROTTLE_ACCOUNT_FAILURES },
    /** Failed sign-ins and wrong account links from one client address. */
    address: { ...failures, scope: 'ip', by: 'address', free: config.THROTTLE_IP_FAILURES },
    /** Reset and invitation mails to one address. */
    mailTo: { ...mails, scope: 'mail-to', by: 'email', free: config.THROTTLE_MAILS_PER_ADDRESS },
    /** Reset and invitation mails asked from one client address. */
    mailFromAddress: { ...mails, scope: 'mail-from-ip', by: 'address', free: config.THROTTLE_MAILS_PER_SENDER },
    /** Invitation mails sent by one user. */
    mailFromUser: { ...mails, scope: 'mail-from-user', by: 'user', free: config.THROTTLE_MAILS_PER_SENDER },
  } satisfies Record<string, ThrottleRule>;
}

/** The key of `rule` for an address, email or user id. */
export function throttleKey(rule: ThrottleRule, id: string): ThrottleKey {
  if (rule.by === 'address') return { rule, id: networkOf(id) };
  if (rule.by === 'email') return { rule, id: normalizeEmail(id) };
  return { rule, id };
}

const keyText = (key: ThrottleKey) => `${key.rule.scope}:${key.id}`;

/**
 * The wait after the `count`-th counted attempt: none before the free budget is spent, then the
 * first wait, doubling with each further attempt up to the longest.
 */
export function waitAfter(rule: ThrottleRule, count: number): number {
  if (count < rule.free) return 0;
  return Math.min(rule.firstWaitMs * 2 ** Math.min(count - rule.free, 40), rule.maxWaitMs);
}

/** A wait in words, rounded up: "1 second", "45 seconds", "2 minutes", "1 hour". */
export function describeWait(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.ceil(ms / SECOND));
  if (seconds < 60) return plural(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}

/** 429 TooManyRequests with the wait in words, in `Retry-After` and in `details.retryAfterSeconds`. */
export function tooManyRequests(rule: ThrottleRule, waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / SECOND));
  return new AppError(
    'TooManyRequests',
    `${rule.refusal} Try again in ${describeWait(seconds * SECOND)}.`,
    { details: { retryAfterSeconds: seconds }, headers: { 'retry-after': String(seconds) } },
  );
}

type TakenAttempt = { key: ThrottleKey; count: number };

/**
 * Takes one attempt on every key (at once: each is a write the database makes durable), or gives
 * back those taken and throws TooManyRequests with the longest wait of the keys that refused.
 */
async function takeAttempts(deps: ThrottleDeps, keys: ThrottleKey[]): Promise<TakenAttempt[]> {
  const now = deps.clock.now();
  const rows = await Promise.all(keys.map((key) => takeThrottleAttempt(deps.db, { key: keyText(key), now, count: key.rule })));
  const taken = keys.flatMap((key, i) => (rows[i] ? [{ key, count: rows[i].failures }] : []));
  if (taken.length < keys.length) {
    await returnAttempts(deps, taken);
    const refusals = await Promise.all(keys.filter((_, i) => !rows[i]).map((key) => refusalFor(deps, key, now)));
    throw refusals.reduce((longest, refusal) => (refusal.waitMs > longest.waitMs ? refusal : longest)).error;
  }
  if (Math.random() < PRUNE_CHANCE) {
    await deleteQuietThrottles(deps.db, new Date(now.getTime() - DAY)).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'could not delete quiet throttle keys'),
    );
  }
  return taken;
}

async function refusalFor(deps: ThrottleDeps, key: ThrottleKey, now: Date): Promise<{ waitMs: number; error: AppError }> {
  const row = await findThrottle(deps.db, keyText(key));
  const waitMs =
    row?.blockedUntil && row.blockedUntil > now
      ? row.blockedUntil.getTime() - now.getTime()
      : // The attempt that spent the budget is still running: its failure would impose this wait.
        waitAfter(key.rule, row?.failures ?? key.rule.free);
  return { waitMs, error: tooManyRequests(key.rule, waitMs) };
}

/** Counts taken attempts as failed: each key waits as long as its count says. */
async function countAttempts(deps: ThrottleDeps, taken: TakenAttempt[]): Promise<void> {
  const now = deps.clock.now().getTime();
  const waits = taken.map(({ key, count }) => ({ key, waitMs: waitAfter(key.rule, count) })).filter(({ waitMs }) => waitMs > 0);
  await Promise.all(waits.map(({ key, waitMs }) => blockThrottleKey(deps.db, keyText(key), new Date(now + waitMs))));
}

async function returnAttempts(deps: ThrottleDeps, taken: TakenAttempt[]): Promise<void> {
  const now = deps.clock.now();
  await Promise.all(taken.map(({ key }) => returnThrottleAttempt(deps.db, { key: keyText(key), now, free: key.rule.free })));
}

/** How an attempt counts: on which keys, which of its failures count, and which keys its success clears. */
export type FailureThrottle = { keys: ThrottleKey[]; failureCodes: readonly ErrorCode[]; clearOnSuccess?: ThrottleKey[] };

/**
 * Runs an attempt (a sign-in, a link check) under the throttle of `keys`. It is refused
 * with TooManyRequests while a key waits. Only failures count: an AppError with one of
 * `failureCodes` counts on every key; success or any other error gives the attempt back, and
 * success clears the keys in `clearOnSuccess`.
 */
export async function throttleFailures<T>(deps: ThrottleDeps, options: FailureThrottle, attempt: () => Promise<T>): Promise<T> {
  const taken = await takeAttempts(deps, options.keys);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (error instanceof AppError && options.failureCodes.includes(error.code)) await countAttempts(deps, taken);
    else await returnAttempts(deps, taken);
    throw error;
  }
  const cleared = options.clearOnSuccess ?? [];
  const isCleared = (key: ThrottleKey) => cleared.some((other) => keyText(other) === keyText(key));
  await Promise.all([
    returnAttempts(deps, taken.filter(({ key }) => !isCleared(key))),
    ...cleared.map((key) => deleteThrottle(deps.db, keyText(key))),
  ]);
  return result;
}

/** Counts one request on every key (each one sends mail, whatever its outcome), or refuses it. */
export async function throttleRequest(deps: ThrottleDeps, keys: ThrottleKey[]): Promise<void> {
  await countAttempts(deps, await takeAttempts(deps, keys));
}

/** Forgets a key's count and wait (e.g. the account's, once its owner proved the mailbox is theirs). */
export async function clearThrottle(deps: ThrottleDeps, key: ThrottleKey): Promise<void> {
  await deleteThrottle(deps.db, keyText(key));
}

/**
 * What a client address is counted as: an IPv4 address itself, an IPv6 address by its /64 network
 * (one host commonly holds a whole /64), an IPv4-mapped IPv6 address as the IPv4 address.
 */
export function networkOf(ip: string): string {
  const address = ip.toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}
