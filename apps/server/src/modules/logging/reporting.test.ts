import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_INTERVALS } from '@plinth/shared';
import { createExhibit, createHardware, createWorld, userWith } from '../../test/factories.js';
import { createFakeClock } from '../../test/fake-clock.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** The server's clock stands still here, so the daylight-saving dates of the tests stay within the retention. */
const NOW = new Date('2026-11-01T12:00:00.000Z');
const HOUR = 3_600_000;

let server: TestServer;
let viewer: TestClient;
let outsider: TestClient;
let siteId: string;
let exhibitId: string;

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const ms = (iso: string) => Date.parse(iso);

/** Report events of a new exhibit of the site: [name, ISO time, data?]. */
async function exhibitWithEvents(events: [string, string, unknown?][]): Promise<string> {
  const id = (await createExhibit(server.deps.db, siteId)).id;
  for (const [name, at, data] of events) server.deps.logs.event({ exhibitId: id, name, data: data ?? null, at: new Date(at) });
  await server.deps.logs.flush();
  return id;
}

async function report(params: Record<string, string | number>) {
  const res = await viewer.get(`/reporting/exhibit/report?${query(params)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.report as { labels: string[]; datasets: { label: string; data: number[] }[] };
}

/** Seconds into 2026-10-28 (UTC) of each seeded event, by name. */
const DAY = '2026-10-28';
const VISITS = [30, 300, 2700, 14_340, 14_400, 43_200, 86_399];
const CLICKS = [10, 45_000];

beforeAll(async () => {
  server = await startTestServer({ LOG_RETENTION_DAYS: '400' }, { clock: createFakeClock(NOW) });
  const world = await createWorld(server);
  siteId = world.siteA.id;
  viewer = await userWith(server, ['organization', world.org.id, 'VIEWER']);
  outsider = world.outsider;
  const at = (seconds: number) => new Date(ms(`${DAY}T00:00:00Z`) + seconds * 1000).toISOString();
  exhibitId = await exhibitWithEvents([...VISITS.map((s): [string, string] => ['visit', at(s)]), ...CLICKS.map((s): [string, string] => ['click', at(s)])]);
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /reporting/exhibit/report', () => {
  it('counts each event name per bucket at every interval the console offers, zero buckets included', async () => {
    const start = ms(`${DAY}T00:00:00Z`);
    const end = ms(`${DAY}T23:59:59.999Z`);
    for (const { seconds } of REPORT_INTERVALS) {
      const buckets = 86_400 / seconds;
      const expected = (times: number[]) => {
        const data = Array.from({ length: buckets }, () => 0);
        for (const s of times) data[Math.floor(s / seconds)]! += 1;
        return data;
      };
      const got = await report({ exhibitId, start, end, interval: seconds, timeZone: 'UTC' });
      expect(got.labels, `${seconds} s`).toEqual(Array.from({ length: buckets }, (_, i) => new Date(start + i * seconds * 1000).toISOString()));
      expect(got.datasets, `${seconds} s`).toEqual([
        { label: 'click', data: expected(CLICKS) },
        { label: 'visit', data: expected(VISITS) },
      ]);
    }
  });

  it('starts each bucket at the viewer’s local wall time', async () => {
    // 2026-10-28 00:00 in Amsterdam (CET) is 27 Oct 23:00 UTC: the 23:59:59 visit of the 28th falls in the 29th there.
    const got = await report({ exhibitId, start: ms('2026-10-27T23:00:00Z'), end: ms('2026-10-29T22:59:59Z'), interval: 86_400, timeZone: 'Europe/Amsterdam' });
    expect(got.labels).toEqual(['2026-10-27T23:00:00.000Z', '2026-10-28T23:00:00.000Z']);
    expect(got.datasets).toEqual([
      { label: 'click', data: [2, 0] },
      { label: 'visit', data: [6, 1] },
    ]);
  });

  it('groups by value with filter=value, one dataset per value, none as "(none)"', async () => {
    const id = await exhibitWithEvents([
      ['visit', `${DAY}T10:00:00Z`, 'kids'],
      ['visit', `${DAY}T10:10:00Z`, 'kids'],
      ['visit', `${DAY}T11:00:00Z`, 'adults'],
      ['score', `${DAY}T11:30:00Z`, 3],
      ['done', `${DAY}T11:40:00Z`, true],
      ['visit', `${DAY}T11:50:00Z`],
    ]);
    const range = { exhibitId: id, start: ms(`${DAY}T10:00:00Z`), end: ms(`${DAY}T11:59:59Z`), interval: 3600 };
    const byValue = await report({ ...range, filter: 'value' });
    expect(byValue.labels).toEqual([`${DAY}T10:00:00.000Z`, `${DAY}T11:00:00.000Z`]);
    expect(Object.fromEntries(byValue.datasets.map((d) => [d.label, d.data]))).toEqual({
      kids: [2, 0],
      adults: [0, 1],
      '3': [0, 1],
      true: [0, 1],
      '(none)': [0, 1],
    });
    const byName = await report(range);
    expect(byName.datasets).toEqual([
      { label: 'done', data: [0, 1] },
      { label: 'score', data: [0, 1] },
      { label: 'visit', data: [2, 2] },
    ]);
  });

  it('gets the autumn daylight-saving change right: the repeated hour joins its first occurrence', async () => {
    // Europe/Amsterdam, 25 Oct 2026: 03:00 CEST (01:00 UTC) becomes 02:00 CET; local 02:00-03:00 happens twice.
    const times = Array.from({ length: 8 }, (_, i) => new Date(ms('2026-10-24T22:30:00Z') + i * HOUR).toISOString());
    const id = await exhibitWithEvents(times.map((at): [string, string] => ['visit', at]));
    const range = { exhibitId: id, start: ms('2026-10-24T22:00:00Z'), end: ms('2026-10-25T05:59:59Z'), timeZone: 'Europe/Amsterdam' };
    const hourly = await report({ ...range, interval: 3600 });
    // Local 00:00, 01:00, 02:00 (first at 00:00 UTC, spanning two real hours), 03:00 CET, 04:00, 05:00, 06:00.
    expect(hourly.labels).toEqual(['2026-10-24T22:00', '2026-10-24T23:00', '2026-10-25T00:00', '2026-10-25T02:00', '2026-10-25T03:00', '2026-10-25T04:00', '2026-10-25T05:00'].map((t) => `${t}:00.000Z`));
    expect(hourly.datasets).toEqual([{ label: 'visit', data: [1, 1, 2, 1, 1, 1, 1] }]);
    const fourHourly = await report({ ...range, interval: 14_400 });
    // Local 00:00-04:00 lasts five real hours that night.
    expect(fourHourly.labels).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T03:00:00.000Z']);
    expect(fourHourly.datasets).toEqual([{ label: 'visit', data: [5, 3] }]);
  });

  it('gets the spring change right: a skipped wall time starts when the clock reaches its bucket', async () => {
    // Europe/Amsterdam, 29 Mar 2026: 02:00 CET (01:00 UTC) becomes 03:00 CEST; local 02:00-03:00 never happens.
    const times = Array.from({ length: 5 }, (_, i) => new Date(ms('2026-03-28T23:30:00Z') + i * HOUR).toISOString());
    const id = await exhibitWithEvents(times.map((at): [string, string] => ['visit', at]));
    const range = { exhibitId: id, start: ms('2026-03-28T23:00:00Z'), end: ms('2026-03-29T03:59:59Z'), timeZone: 'Europe/Amsterdam' };
    const hourly = await report({ ...range, interval: 3600 });
    expect(hourly.labels).toEqual(['2026-03-28T23:00', '2026-03-29T00:00', '2026-03-29T01:00', '2026-03-29T02:00', '2026-03-29T03:00'].map((t) => `${t}:00.000Z`));
    expect(hourly.datasets).toEqual([{ label: 'visit', data: [1, 1, 1, 1, 1] }]);
    const twoHourly = await report({ ...range, interval: 7200 });
    expect(twoHourly.labels).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    expect(twoHourly.datasets).toEqual([{ label: 'visit', data: [2, 1, 2] }]);
  });

  it('refuses bad queries with 400 naming the field, and callers who cannot see the exhibit', async () => {
    const range = { exhibitId, start: ms(`${DAY}T00:00:00Z`), end: ms(`${DAY}T12:00:00Z`) };
    const cases: [Record<string, string | number>, string][] = [
      [{ ...range, interval: 30 }, 'interval'],
      [{ ...range, interval: 'hour' }, 'interval'],
      [{ ...range, start: ms('2025-01-01T00:00:00Z'), interval: 86_400 }, 'start'],
      [{ ...range, start: ms('2025-01-01T00:00:00Z'), interval: 60 }, 'interval'],
      [{ ...range, end: range.start - 1, interval: 60 }, 'end'],
      [{ ...range, interval: 3600, timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ ...range, interval: 3600, filter: 'name' }, 'filter'],
    ];
    for (const [params, field] of cases) {
      const res = await viewer.get(`/reporting/exhibit/report?${query(params)}`);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.message.startsWith(`${field}:`), `${res.body.message} names ${field}`).toBe(true);
    }
    expect((await outsider.get(`/reporting/exhibit/report?${query({ ...range, interval: 3600 })}`)).status).toBe(404);
    expect((await server.client().get(`/reporting/exhibit/report?${query({ ...range, interval: 3600 })}`)).status).toBe(401);
  });
});

describe('GET /reporting/hardware/report', () => {
  it('counts the board’s events per local day over 14 days, one dataset per event type', async () => {
    const hardwareId = (await createHardware(server.deps.db, siteId)).id;
    const lines: [string, string][] = [
      ['online', '2026-10-20T10:00:00Z'],
      ['offline', '2026-10-20T11:00:00Z'],
      ['online', '2026-10-20T11:05:00Z'],
      // 22:30 UTC on the 24th is already the 25th in Amsterdam.
      ['reboot', '2026-10-24T22:30:00Z'],
      ['button', '2026-10-31T09:00:00Z'],
      ['button', '2026-10-31T09:01:00Z'],
      ['button', '2026-11-01T11:00:00Z'],
      // A board's own line (its level as event type) is not counted.
      ['warn', '2026-10-31T09:02:00Z'],
    ];
    for (const [eventType, at] of lines) {
      server.deps.logs.record({ source: 'hardware', deviceId: hardwareId, level: eventType === 'warn' ? 'warn' : 'info', eventType, message: eventType, at: new Date(at) });
    }
    await server.deps.logs.flush();
    const start = NOW.getTime() - 14 * 86_400_000;
    const res = await viewer.get(`/reporting/hardware/report?${query({ hardwareId, start, end: NOW.getTime(), timeZone: 'Europe/Amsterdam' })}`);
    expect(res.status).toBe(200);
    const { labels, datasets } = res.body.report as { labels: string[]; datasets: { label: string; data: number[] }[] };
    // 18 Oct to 1 Nov: local midnights, CEST (22:00 UTC) until the 25th, CET (23:00 UTC) after.
    expect(labels).toHaveLength(15);
    expect(labels[0]).toBe('2026-10-17T22:00:00.000Z');
    expect(labels[7]).toBe('2026-10-24T22:00:00.000Z');
    expect(labels[8]).toBe('2026-10-25T23:00:00.000Z');
    expect(labels[14]).toBe('2026-10-31T23:00:00.000Z');
    const day = (iso: string) => labels.indexOf(iso);
    const series = (counts: Record<string, number>) => labels.map((label) => counts[label] ?? 0);
    expect(datasets).toEqual([
      { label: 'online', data: series({ '2026-10-19T22:00:00.000Z': 2 }) },
      { label: 'offline', data: series({ '2026-10-19T22:00:00.000Z': 1 }) },
      { label: 'reboot', data: series({ '2026-10-24T22:00:00.000Z': 1 }) },
      { label: 'button', data: series({ '2026-10-30T23:00:00.000Z': 2, '2026-10-31T23:00:00.000Z': 1 }) },
    ]);
    expect(day('2026-10-19T22:00:00.000Z')).toBe(2);

    const tooLong = await viewer.get(`/reporting/hardware/report?${query({ hardwareId, start: start - 2 * 86_400_000, end: NOW.getTime() })}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/^end:/);
    expect((await outsider.get(`/reporting/hardware/report?${query({ hardwareId, start, end: NOW.getTime() })}`)).status).toBe(404);
    expect((await server.client().get(`/reporting/hardware/report?${query({ hardwareId, start, end: NOW.getTime() })}`)).status).toBe(401);
  });
});
