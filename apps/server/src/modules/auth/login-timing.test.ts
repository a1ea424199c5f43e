import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import type { TestResponse } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const ROUNDS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timedSignIn(email: string, password: string): Promise<{ ms: number; res: TestResponse }> {
  const started = performance.now();
  const res = await server.client().post('/auth/user/login', { email, password });
  return { ms: performance.now() - started, res };
}

describe('sign-in timing does not tell who has an account', () => {
  it('takes the same time and answers the same body for an unknown email and a wrong password', async () => {
    const { email: known } = await server.signUp();
    const invited = 'invited.timing@example.com';
    await server.deps.db.insert(users).values({ email: invited, accountCreated: false });
    const google = 'google.timing@example.com';
    await server.deps.db.insert(users).values({ email: google, accountCreated: true, oidcSubject: 'google-subject-timing' });

    const paths = {
      unknown: () => timedSignIn('nobody.timing@example.com', 'Wr0ngPassword'),
      wrongPassword: () => timedSignIn(known, 'Wr0ngPassword'),
      invited: () => timedSignIn(invited, 'Wr0ngPassword'),
      googleOnly: () => timedSignIn(google, 'Wr0ngPassword'),
    };
    type Path = keyof typeof paths;
    const names = Object.keys(paths) as Path[];
    const times: Record<Path, number[]> = { unknown: [], wrongPassword: [], invited: [], googleOnly: [] };
    const answers: Partial<Record<Path, TestResponse>> = {};
    // Warm up (first argon2 call, connection pool, JIT), then interleave so load hits every path alike.
    for (const name of names) await paths[name]();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length]!;
        const { ms, res } = await paths[name]();
        times[name].push(ms);
        answers[name] = res;
      }
    }
    const medians = Object.fromEntries(names.map((name) => [name, median(times[name])])) as Record<Path, number>;
    console.info('sign-in medians (ms):', Object.fromEntries(names.map((name) => [name, medians[name].toFixed(1)])));

    expect(answers.unknown!.status).toBe(401);
    expect(answers.unknown!.status).toBe(answers.wrongPassword!.status);
    expect(answers.unknown!.body).toEqual(answers.wrongPassword!.body);
    expect(answers.unknown!.body.response).toBe('IncorrectUsernameOrPassword');
    expect(answers.invited!.body.response).toBe('UserAccountNotCreated');
    expect(answers.googleOnly!.body.response).toBe('UserAccountCreatedWithGAuth');
    for (const name of ['unknown', 'invited', 'googleOnly'] as const) {
      const ratio = medians[name] / medians.wrongPassword;
      expect(ratio, `${name} vs wrong password: ${medians[name].toFixed(1)} ms vs ${medians.wrongPassword.toFixed(1)} ms`).toBeGreaterThan(0.5);
      expect(ratio, `${name} vs wrong password: ${medians[name].toFixed(1)} ms vs ${medians.wrongPassword.toFixed(1)} ms`).toBeLessThan(2);
    }
  });
});
