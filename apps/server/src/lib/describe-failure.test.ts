import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { describeFailure } from './describe-failure.js';

const SUBMITTED = 'SUBMITTED-VALUE-c41a';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The error a real query answers, as the error handler receives it. */
async function failureOf(query: ReturnType<typeof sql>): Promise<unknown> {
  return server.deps.db.execute(query).then(
    () => expect.fail('the query should fail'),
    (error: unknown) => error,
  );
}

describe('describeFailure', () => {
  it('describes a database error by its code and its SQL with placeholders, never the parameters', async () => {
    const error = await failureOf(sql`select ${`${SUBMITTED}\u0000`}::text`);
    expect(String((error as Error).message)).toContain(SUBMITTED);
    const described = describeFailure(error);
    expect(described).toMatchObject({ type: 'DatabaseError', code: '22021', sql: 'select $1::text' });
    expect(JSON.stringify(described)).not.toContain(SUBMITTED);
  });

  it('leaves out PostgreSQL messages that quote the value', async () => {
    const error = await failureOf(sql`select ${SUBMITTED}::uuid`);
    const described = describeFailure(error);
    expect(described).toMatchObject({ code: '22P02' });
    expect(JSON.stringify(described)).not.toContain(SUBMITTED);
  });

  it('keeps the message and stack of the server’s own errors', () => {
    expect(describeFailure(new TypeError('x is not a function'))).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
  });
});
