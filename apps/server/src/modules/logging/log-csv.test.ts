import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHardware, createWorld, userWith } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { CSV_CHUNK_ROWS } from './logging.service.js';

let server: TestServer;
let viewer: TestClient;
let outsider: TestClient;
let exhibitId: string;
let hardwareId: string;
let t0: number;
/** More than two chunks of the keyset export, plus the special lines. */
const PLAIN = CSV_CHUNK_ROWS * 2 + 345;
const SPECIAL = ['say "hi", ok', '=SUM(A1:A9)', '+31 6 1234', '-2', '@cmd', 'two\nlines', '{"json":true}'];

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

beforeAll(async () => {
  server = await startTestServer();
  const world = await createWorld(server);
  exhibitId = world.exhibit.id;
  hardwareId = (await createHardware(server.deps.db, world.siteA.id)).id;
  viewer = await userWith(server, ['organization', world.org.id, 'VIEWER']);
  outsider = world.outsider;
  t0 = Date.now() - 7_200_000;
  for (let i = 0; i < PLAIN; i++) {
    // Pairs share an instant: the keyset must page over (at, id), not at alone.
    server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: 'info', eventType: 'info', message: `line ${i}`, at: new Date(t0 + Math.floor(i / 2)) });
  }
  SPECIAL.forEach((message, i) => {
    server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: 'warn', eventType: 'control', message, at: new Date(t0 + 3_600_000 + i) });
  });
  server.deps.logs.record({ source: 'hardware', deviceId: hardwareId, level: 'error', eventType: 'error', message: 'relay stuck', at: new Date(t0) });
  await server.deps.logs.flush();
});
afterAll(async () => {
  await server?.stop();
});

const range = () => ({ start: t0 - 1, end: Date.now() });

describe('GET /logging/exhibit/csv', () => {
  it('streams a CSV attachment with Accept: text/csv, oldest first, quoted and guarded against formulas', async () => {
    const res = await viewer.request('GET', `/logging/exhibit/csv?${query({ id: exhibitId, ...range() })}`, undefined, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="exhibit-logs-${exhibitId}-\\d{8}-\\d{6}\\.csv"$`));
    const text = res.body as string;
    const records = text.split('\r\n');
    expect(records.at(-1)).toBe('');
    expect(records[0]).toBe('datetime,data,event_type');
    const rows = records.slice(1, -1);
    expect(rows).toHaveLength(PLAIN + SPECIAL.length);
    expect(rows[0]).toBe(`${new Date(t0).toISOString()},line 0,info`);
    expect(rows[PLAIN - 1]).toBe(`${new Date(t0 + Math.floor((PLAIN - 1) / 2)).toISOString()},line ${PLAIN - 1},info`);
    // Every line once, in order, across the chunk boundaries.
    expect(rows.slice(0, PLAIN).map((row) => row.split(',')[1])).toEqual(Array.from({ length: PLAIN }, (_, i) => `line ${i}`));
    expect(rows.slice(PLAIN).map((row) => row.slice(25))).toEqual([
      '"say ""hi"", ok",control',
      `'=SUM(A1:A9),control`,
      `'+31 6 1234,control`,
      `'-2,control`,
      `'@cmd,control`,
      '"two\nlines",control',
      '"{""json"":true}",control',
    ]);
  });

  it('answers the same rows as JSON by default', async () => {
    const res = await viewer.get(`/logging/exhibit/csv?${query({ id: exhibitId, ...range() })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.logs).toHaveLength(PLAIN + SPECIAL.length);
    expect(res.body.logs[0]).toEqual({ datetime: new Date(t0).toISOString(), data: 'line 0', event_type: 'info' });
    expect(res.body.logs.slice(PLAIN).map((row: { data: string }) => row.data)).toEqual(SPECIAL);
    const empty = await viewer.get(`/logging/exhibit/csv?${query({ id: exhibitId, start: t0 - 10, end: t0 - 5 })}`);
    expect(empty.body).toEqual({ logs: [] });
    const emptyCsv = await viewer.request('GET', `/logging/exhibit/csv?${query({ id: exhibitId, start: t0 - 10, end: t0 - 5 })}`, undefined, { accept: 'text/csv' });
    expect(emptyCsv.body).toBe('datetime,data,event_type\r\n');
  });

  it('checks the caller and the range before anything streams', async () => {
    expect((await outsider.get(`/logging/exhibit/csv?${query({ id: exhibitId, ...range() })}`)).status).toBe(404);
    expect((await server.client().get(`/logging/exhibit/csv?${query({ id: exhibitId, ...range() })}`)).status).toBe(401);
    const old = await viewer.request('GET', `/logging/exhibit/csv?${query({ id: exhibitId, start: 0, end: Date.now() })}`, undefined, { accept: 'text/csv' });
    expect(old.status).toBe(400);
    expect(old.body.message).toMatch(/^start:/);
    const backwards = await viewer.get(`/logging/exhibit/csv?${query({ id: exhibitId, start: Date.now(), end: t0 })}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/^end:/);
  });
});

describe('GET /logging/hardware/csv', () => {
  it('streams the board’s lines the same way', async () => {
    const res = await viewer.request('GET', `/logging/hardware/csv?${query({ id: hardwareId, ...range() })}`, undefined, { accept: 'text/csv' });
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`filename="hardware-logs-${hardwareId}-\\d{8}-\\d{6}\\.csv"`));
    expect(res.body).toBe(`datetime,data,event_type\r\n${new Date(t0).toISOString()},relay stuck,error\r\n`);
    expect((await viewer.get(`/logging/hardware/csv?${query({ id: hardwareId, ...range() })}`)).body).toEqual({
      logs: [{ datetime: new Date(t0).toISOString(), data: 'relay stuck', event_type: 'error' }],
    });
    expect((await outsider.get(`/logging/hardware/csv?${query({ id: hardwareId, ...range() })}`)).status).toBe(404);
  });
});
