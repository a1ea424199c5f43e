import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { createFakeClock, type FakeClock } from '../../test/fake-clock.js';
import { createTestDatabase } from '../../test/test-server.js';
import { findThrottle } from './throttle.repository.js';
import {
  describeWait,
  networkOf,
  throttleFailures,
  throttleKey,
  throttleRequest,
  throttleRules,
  waitAfter,
  type ThrottleDeps,
  type ThrottleKey,
} from './throttle.service.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const rules = throttleRules(loadConfig({}));

describe('the wait', () => {
  it('is none for the free failures, then 1 s doubling up to 15 minutes (an account)', () => {
    const waits = Array.from({ length: 16 }, (_, i) => waitAfter(rules.account, i + 1));
    expect(waits).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900].map((s) => s * SECOND));
    expect(waitAfter(rules.account, 10_000)).toBe(15 * MINUTE);
  });

  it('gives a client address 50 free failures and mail 3 free per address, then a minute doubling to an hour', () => {
    expect(waitAfter(rules.address, 49)).toBe(0);
    expect(waitAfter(rules.address, 50)).toBe(SECOND);
    expect([2, 3, 4, 9, 10].map((n) => waitAfter(rules.mailTo, n))).toEqual([0, MINUTE, 2 * MINUTE, 60 * MINUTE, 60 * MINUTE]);
  });

  it('is said in words, rounded up', () => {
    expect([1, 1000, 1001, 45_000, 60_000, 61_000, 15 * MINUTE, 60 * MINUTE, 90 * MINUTE].map(describeWait)).toEqual([
      '1 second',
      '1 second',
      '2 seconds',
      '45 seconds',
      '1 minute',
      '2 minutes',
      '15 minutes',
      '1 hour',
      '2 hours',
    ]);
  });
});

describe('client addresses', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4 and IPv6 by its /64', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:DB8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('64:ff9b:1:2::203.0.113.7')).toBe('64:ff9b:1:2::/64');
  });
});

describe('the throttle, on a fake clock', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let clock: FakeClock;
  let deps: ThrottleDeps;
  let sequence = 0;
  let account: ThrottleKey;
  let address: ThrottleKey;

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.url, dataDir: '', holder: 'test' });
    clock = createFakeClock(new Date('2026-03-01T09:00:00Z'));
    deps = { db: database.db, clock, config: loadConfig({}), logger: pino({ level: 'silent' }) };
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
  beforeEach(() => {
    sequence += 1;
    account = throttleKey(rules.account, `Someone${sequence}@Example.com`);
    address = throttleKey(rules.address, `198.51.100.${sequence}`);
  });

  const wrongPassword = () => Promise.reject(new AppError('IncorrectUsernameOrPassword'));
  const signIn = (attempt: () => Promise<unknown>) =>
    throttleFailures(deps, { keys: [address, account], failureCodes: ['IncorrectUsernameOrPassword'], clearOnSuccess: [account] }, attempt);
  /** What an attempt answers: its own error code, or 'ok', or the refusal's wait in seconds. */
  const outcome = (attempt: () => Promise<unknown>) =>
    signIn(attempt).then(
      () => 'ok',
      (error: AppError) => (error.code === 'TooManyRequests' ? `wait ${error.headers?.['retry-after']}` : error.code),
    );
  const failures = async (key: ThrottleKey) => (await findThrottle(deps.db, `${key.rule.scope}:${key.id}`))?.failures ?? 0;

  it('keys an account by its normalized email', () => {
    expect(account.id).toBe(`someone${sequence}@example.com`);
  });

  it('makes an account wait after 5 failures, doubling each time, and refuses while it waits without counting', async () => {
    for (let i = 0; i < 5; i++) expect(await outcome(wrongPassword)).toBe('IncorrectUsernameOrPassword');
    expect(await outcome(wrongPassword)).toBe('wait 1');
    expect(await outcome(async () => 'right password')).toBe('wait 1');
    clock.advance(999);
    expect(await outcome(wrongPassword)).toBe('wait 1');
    expect(await failures(account)).toBe(5);
    clock.advance(1);
    expect(await outcome(wrongPassword)).toBe('IncorrectUsernameOrPassword');
    expect(await outcome(wrongPassword)).toBe('wait 2');
    clock.advance(2 * SECOND);
    expect(await outcome(wrongPassword)).toBe('IncorrectUsernameOrPassword');
    expect(await outcome(wrongPassword)).toBe('wait 4');
  });

  it('counts only failures: success clears the account and gives the address its attempt back', async () => {
    for (let i = 0; i < 3; i++) await outcome(wrongPassword);
    expect(await outcome(async () => 'right password')).toBe('ok');
    expect(await failures(account)).toBe(0);
    expect(await failures(address)).toBe(3);
  });

  it('gives the attempt back on an error that is not a failure', async () => {
    expect(await outcome(() => Promise.reject(new AppError('InternalServer')))).toBe('InternalServer');
    expect(await failures(account)).toBe(0);
    expect(await failures(address)).toBe(0);
  });

  it('starts counting again after 15 minutes without failures, counted from the end of the wait', async () => {
    for (let i = 0; i < 5; i++) await outcome(wrongPassword);
    clock.advance(15 * MINUTE);
    expect(await failures(account)).toBe(5);
    expect(await outcome(wrongPassword)).toBe('IncorrectUsernameOrPassword');
    expect(await failures(account)).toBe(6);
    clock.advance(2 * SECOND + 15 * MINUTE);
    expect(await outcome(wrongPassword)).toBe('IncorrectUsernameOrPassword');
    expect(await failures(account)).toBe(1);
  });

  it('gives back the attempts of the other keys when one refuses', async () => {
    for (let i = 0; i < 5; i++) await outcome(wrongPassword);
    expect(await failures(address)).toBe(5);
    expect(await outcome(wrongPassword)).toBe('wait 1');
    expect(await failures(address)).toBe(5);
  });

  it('lets only the free failures through when attempts run at once', async () => {
    const slowWrongPassword = () => new Promise<never>((_, reject) => setTimeout(() => reject(new AppError('IncorrectUsernameOrPassword')), 50));
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => outcome(slowWrongPassword)));
    expect(outcomes.filter((o) => o === 'IncorrectUsernameOrPassword')).toHaveLength(5);
    expect(outcomes.filter((o) => o.startsWith('wait'))).toHaveLength(7);
    expect(await failures(account)).toBe(5);
  });

  it('counts every mail request, whatever happens next', async () => {
    const to = throttleKey(rules.mailTo, `Mailbox${sequence}@example.com`);
    const from = throttleKey(rules.mailFromAddress, `203.0.113.${sequence}`);
    for (let i = 0; i < 3; i++) await throttleRequest(deps, [from, to]);
    await expect(throttleRequest(deps, [from, to])).rejects.toMatchObject({
      code: 'TooManyRequests',
      message: 'Too many emails were requested. Try again in 1 minute.',
      headers: { 'retry-after': '60' },
    });
    expect(await failures(from)).toBe(3);
    clock.advance(MINUTE);
    await throttleRequest(deps, [from, to]);
    await expect(throttleRequest(deps, [from, to])).rejects.toMatchObject({ headers: { 'retry-after': '120' } });
  });
});
