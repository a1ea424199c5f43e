import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LEVELS, type LogLevel } from '@plinth/shared';
import { createHardware, createWorld, userWith } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let admin: TestClient;
let viewer: TestClient;
let outsider: TestClient;
let exhibitId: string;
let otherExhibitId: string;
let hardwareId: string;
/** The first seeded line's time; line i is i seconds later. */
let t0: number;
const LINES = 45;
/** Line i's level: the levels in turn. */
const levelOf = (i: number): LogLevel => LOG_LEVELS[i % LOG_LEVELS.length]!;

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const world = await createWorld(server);
  exhibitId = world.exhibit.id;
  otherExhibitId = (await createWorld(server)).exhibit.id;
  hardwareId = (await createHardware(server.deps.db, world.siteA.id)).id;
  viewer = await userWith(server, ['organization', world.org.id, 'VIEWER']);
  outsider = world.outsider;
  t0 = Date.now() - 3_600_000;
  for (let i = 0; i < LINES; i++) {
    server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: levelOf(i), eventType: levelOf(i), message: `line ${i}`, at: new Date(t0 + i * 1000) });
  }
  // Another exhibit's lines and a board's never mix with these.
  server.deps.logs.record({ source: 'exhibit', deviceId: otherExhibitId, level: 'info', eventType: 'info', message: 'elsewhere', at: new Date(t0) });
  server.deps.logs.record({ source: 'hardware', deviceId: hardwareId, level: 'warn', eventType: 'warn', message: 'low voltage', at: new Date(t0 + 500) });
  server.deps.logs.record({ source: 'hardware', deviceId: hardwareId, level: 'info', eventType: 'online', message: 'Online: it connected', at: new Date(t0 + 600) });
  await server.deps.logs.flush();
});
afterAll(async () => {
  await server?.stop();
});

const range = () => ({ start: t0 - 1000, end: Date.now() });

describe('GET /logging/exhibit', () => {
  it('answers a page newest first (at desc, id desc) with the count of all, 20 per page by default', async () => {
    const first = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range() })}`);
    expect(first.status).toBe(200);
    expect(first.body.numLogs).toBe(LINES);
    expect(first.body.logs).toHaveLength(20);
    expect(first.body.logs[0]).toEqual({
      id: expect.any(String),
      level: levelOf(LINES - 1),
      eventType: levelOf(LINES - 1),
      message: `line ${LINES - 1}`,
      createdAt: new Date(t0 + (LINES - 1) * 1000).toISOString(),
      timestamp: t0 + (LINES - 1) * 1000,
    });
    const last = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), pageIdx: 2 })}`);
    expect(last.body.logs.map((l: { message: string }) => l.message)).toEqual(['line 4', 'line 3', 'line 2', 'line 1', 'line 0']);
    const custom = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), pageIdx: 1, logsPerPage: 7 })}`);
    expect(custom.body.logs.map((l: { message: string }) => l.message)).toEqual(['line 37', 'line 36', 'line 35', 'line 34', 'line 33', 'line 32', 'line 31']);
  });

  it('orders entries of the same instant by id, newest first', async () => {
    const at = new Date(t0 + 100_000);
    for (const message of ['same 1', 'same 2', 'same 3']) server.deps.logs.record({ source: 'exhibit', deviceId: otherExhibitId, level: 'info', eventType: 'info', message, at });
    await server.deps.logs.flush();
    const res = await admin.get(`/logging/exhibit?${query({ exhibitId: otherExhibitId, start: at.getTime(), end: at.getTime() })}`);
    expect(res.body.logs.map((l: { message: string }) => l.message)).toEqual(['same 3', 'same 2', 'same 1']);
  });

  it('filters by each level, several levels, and none', async () => {
    for (const level of LOG_LEVELS) {
      const res = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), levels: level, logsPerPage: 100 })}`);
      const expected = Array.from({ length: LINES }, (_, i) => i).filter((i) => levelOf(i) === level);
      expect(res.body.numLogs, level).toBe(expected.length);
      expect(res.body.logs.every((l: { level: string }) => l.level === level)).toBe(true);
    }
    const two = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), levels: 'debug,error' })}`);
    expect(two.body.numLogs).toBe(Array.from({ length: LINES }, (_, i) => levelOf(i)).filter((l) => l === 'debug' || l === 'error').length);
    const none = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), levels: '' })}`);
    expect(none.body).toEqual({ logs: [], numLogs: 0 });
    const bad = await viewer.get(`/logging/exhibit?${query({ exhibitId, ...range(), levels: 'info,loud' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^levels/);
  });

  it('keeps to the time range, both ends included', async () => {
    const res = await viewer.get(`/logging/exhibit?${query({ exhibitId, start: t0 + 10_000, end: t0 + 14_000 })}`);
    expect(res.body.logs.map((l: { message: string }) => l.message)).toEqual(['line 14', 'line 13', 'line 12', 'line 11', 'line 10']);
  });

  it('refuses bad ranges and pages with 400 naming the field', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ exhibitId, start: t0 + 5000, end: t0 }, 'end'],
      [{ exhibitId, start: Date.now() - 91 * 86_400_000, end: Date.now() }, 'start'],
      [{ exhibitId, start: 'yesterday', end: Date.now() }, 'start'],
      [{ exhibitId, start: t0, end: 'now' }, 'end'],
      [{ exhibitId, ...range(), pageIdx: 3 }, 'pageIdx'],
      [{ exhibitId, ...range(), pageIdx: -1 }, 'pageIdx'],
      [{ exhibitId, ...range(), pageIdx: 'two' }, 'pageIdx'],
      [{ exhibitId, ...range(), logsPerPage: 0 }, 'logsPerPage'],
      [{ exhibitId: 'not-an-id', ...range() }, 'exhibitId'],
    ];
    for (const [params, field] of cases) {
      const res = await viewer.get(`/logging/exhibit?${query(params)}`);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.code).toBe('ValidationError');
      expect(res.body.message.startsWith(`${field}:`), `${res.body.message} names ${field}`).toBe(true);
    }
    // An empty range's first page is no error.
    const empty = await viewer.get(`/logging/exhibit?${query({ exhibitId, start: t0 - 5000, end: t0 - 4000 })}`);
    expect(empty.body).toEqual({ logs: [], numLogs: 0 });
  });

  it('answers 404 to another organization’s user and 401 signed out', async () => {
    expect((await outsider.get(`/logging/exhibit?${query({ exhibitId, ...range() })}`)).status).toBe(404);
    expect((await server.client().get(`/logging/exhibit?${query({ exhibitId, ...range() })}`)).status).toBe(401);
  });
});

describe('GET /logging/hardware', () => {
  it('answers the board’s lines and its server record, with the same rules', async () => {
    const res = await viewer.get(`/logging/hardware?${query({ hardwareId, ...range() })}`);
    expect(res.status).toBe(200);
    expect(res.body.logs.map((l: { eventType: string; message: string }) => [l.eventType, l.message])).toEqual([
      ['online', 'Online: it connected'],
      ['warn', 'low voltage'],
    ]);
    expect((await viewer.get(`/logging/hardware?${query({ hardwareId, ...range(), levels: 'warn' })}`)).body.numLogs).toBe(1);
    expect((await viewer.get(`/logging/hardware?${query({ hardwareId, ...range(), pageIdx: 1 })}`)).status).toBe(400);
    expect((await outsider.get(`/logging/hardware?${query({ hardwareId, ...range() })}`)).status).toBe(404);
    expect((await server.client().get(`/logging/hardware?${query({ hardwareId, ...range() })}`)).status).toBe(401);
  });
});

describe('POST /logging/…/live', () => {
  it('takes and gives up the caller’s lease, checked like every logging call', async () => {
    const on = await viewer.post('/logging/exhibit/live', { exhibitId, enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    expect(Date.parse(on.body.expiresAt) - Date.now()).toBeGreaterThan(55_000);
    expect(await viewer.post('/logging/exhibit/live', { exhibitId, enabled: false }).then((r) => r.body)).toEqual({ enabled: false, expiresAt: null });
    expect((await viewer.post('/logging/hardware/live', { hardwareId, enabled: true })).body.enabled).toBe(true);
    expect((await outsider.post('/logging/exhibit/live', { exhibitId, enabled: true })).status).toBe(404);
    expect((await outsider.post('/logging/hardware/live', { hardwareId, enabled: true })).status).toBe(404);
    expect((await server.client().post('/logging/exhibit/live', { exhibitId, enabled: true })).status).toBe(401);
    const bad = await viewer.post('/logging/exhibit/live', { exhibitId, enabled: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^enabled/);
  });
});
