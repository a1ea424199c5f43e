import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Readiness } from '@plinth/shared';
import { startCuttableProxy, type CuttableProxy } from '../../test/cuttable-proxy.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { ADMIN_URL } from '../../test/postgres.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../test/test-server.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const METRICS_TOKEN = 'a-metrics-token-of-some-length';

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Readiness };
}

describe('/healthz and /readyz on a running node', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers /healthz without a session, and /readyz 200 naming each part checked, with no version or address', async () => {
    const health = await get(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', failing: [], checks: { database: 'ok', broker: 'ok' } });
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(ready.text).not.toMatch(/\d+\.\d+|127\.0\.0\.1|postgres/i);
  });

  it('says stopping from the first moment of a graceful stop, while other requests are still served', async () => {
    const other = await startTestServer();
    try {
      const draining = other.drain(60_000);
      const ready = await get(`${other.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.json().status).toBe('stopping');
      expect((await get(`${other.url}/healthz`)).status).toBe(200);
      expect((await other.client().get('/config')).status).toBe(200);
      void draining;
    } finally {
      await other.stop();
    }
  });

  it('keeps /metrics off the public port by default', async () => {
    const res = await get(`${server.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('plinth_');
  });
});

describe('/readyz when a part is lost', () => {
  const proxies: CuttableProxy[] = [];
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const proxy of proxies.splice(0)) await proxy.close();
  });

  it('answers 503 naming the database while PostgreSQL is unreachable, and 200 again once it is back', async () => {
    // A database of its own, reached through a proxy this test cuts: the machine's PostgreSQL stays up.
    const database = await createTestDatabase();
    const admin = new URL(ADMIN_URL);
    const proxy = await startCuttableProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    proxies.push(proxy);
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const server = await startTestServer({}, { databaseUrl: url.toString() });
    try {
      expect((await get(`${server.url}/readyz`)).status).toBe(200);
      proxy.cut('refuse');
      const lost = await get(`${server.url}/readyz`);
      expect(lost.status).toBe(503);
      expect(lost.json()).toEqual({ status: 'unavailable', failing: ['database'], checks: { database: 'failing', broker: 'ok' } });
      expect((await get(`${server.url}/healthz`)).status).toBe(200);
      proxy.mend();
      await waitUntil(async () => (await get(`${server.url}/readyz`)).status === 200, 'readyz 200 after PostgreSQL is back');
    } finally {
      await server.stop();
      await database.drop();
    }
  });

  it('answers 503 naming Redis while REDIS_URL is unreachable', async () => {
    const redis = new URL(REDIS_URL);
    const proxy = await startCuttableProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    proxies.push(proxy);
    const server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    servers.push(server);
    expect((await get(`${server.url}/readyz`)).json().checks).toEqual({ database: 'ok', redis: 'ok', broker: 'ok' });
    proxy.cut('refuse');
    const lost = await waitUntil(async () => {
      const res = await get(`${server.url}/readyz`);
      return res.status === 503 ? res.json() : null;
    }, 'readyz 503 once Redis is unreachable');
    expect(lost).toEqual({ status: 'unavailable', failing: ['redis'], checks: { database: 'ok', redis: 'failing', broker: 'ok' } });
    proxy.mend();
    await waitUntil(async () => (await get(`${server.url}/readyz`)).status === 200, 'readyz 200 after Redis is back', 15_000);
  });
});

describe('/metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is served on the main port only with the bearer METRICS_TOKEN', async () => {
    expect((await get(`${server.url}/metrics`)).status).toBe(401);
    expect((await get(`${server.url}/metrics`, { authorization: 'Bearer wrong-token-of-some-length' })).status).toBe(401);
    const res = await get(`${server.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE plinth_boards_online gauge');
    expect(res.text).toContain('process_cpu_seconds_total');
  });

  it('labels HTTP durations by route template and status, never by id', async () => {
    const { client } = await server.signUp();
    const id = '0b6b8a52-43c1-4c0f-9e53-3a1f7b0d2c11';
    expect((await client.get(`/exhibit-management/exhibit/${id}`)).status).toBe(404);
    const text = (await get(`${server.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` })).text;
    expect(text).toMatch(/plinth_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/exhibit-management\/exhibit\/:id",status_code="404"\} 1/);
    expect(text).not.toContain(id);
    // Database time is measured on the pool this node uses.
    expect(text).toMatch(/plinth_db_query_duration_seconds_count [1-9]/);
    expect(text).toMatch(/plinth_db_pool_connections [1-9]/);
  });

  it('with METRICS_PORT too: served on the metrics port only, which asks for the token as well', async () => {
    const both = await startTestServer({ METRICS_TOKEN, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
    try {
      const metricsUrl = `http://127.0.0.1:${both.metricsPort}/metrics`;
      expect((await get(metricsUrl)).status).toBe(401);
      expect((await get(metricsUrl, { authorization: `Bearer ${METRICS_TOKEN}` })).text).toContain('plinth_boards_online');
      expect((await get(`${both.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(404);
    } finally {
      await both.stop();
    }
  });

  it('appears in the OpenAPI description with its bearer scheme, beside /healthz and /readyz', async () => {
    const doc = (await server.client().get<{ paths: Record<string, Record<string, { security?: unknown }>>; components: { securitySchemes: Record<string, unknown> } }>('/api/docs')).body;
    expect(doc.paths['/healthz']?.get).toBeDefined();
    expect(doc.paths['/readyz']?.get).toBeDefined();
    expect(doc.paths['/metrics']?.get?.security).toEqual([{ metricsToken: [] }]);
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
