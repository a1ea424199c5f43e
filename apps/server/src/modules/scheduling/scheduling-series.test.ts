import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUpWith } from '../../test/factories.js';
import { createFakeClock, type FakeClock } from '../../test/fake-clock.js';
import { createScheduledExhibit, DAILY, dailyBody, eventBody, putBody, schedulesPath, starts, utc } from '../../test/scheduling-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * Editing and deleting scheduled events: one occurrence or the series from it on, a single event
 * made a series and back, deleting one or all, and an occurrence that already ran (409).
 */

const ALREADY_RAN = 'This event has already run; it can no longer be changed.';
const NEEDS_CHANGE_ALL = 'changeAll: a change of the frequency or of the end of a series applies to the whole series; apply it to all events';

type Setup = { server: TestServer; admin: TestClient; developer: TestClient; organizationId: string };

async function startSetup(options: { clock?: FakeClock } = {}): Promise<Setup> {
  const server = await startTestServer({ SCHEDULER_POLL_MS: '60000' }, { clock: options.clock });
  const admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const organizationId = (await createOrganization(server.deps.db)).id;
  const developer = (await signUpWith(server, ['organization', organizationId, 'DEVELOPER'])).client;
  return { server, admin, developer, organizationId };
}

const names = (schedules: { name: string }[]) => schedules.map((s) => s.name);

describe('series edits and deletes', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await startSetup();
  });
  afterAll(async () => {
    await setup?.server.stop();
  });

  const list = async (exhibitId: string) => {
    const res = await setup.developer.get(schedulesPath(exhibitId));
    expect(res.status).toBe(200);
    return res.body.schedules;
  };
  /** An exhibit with a daily series Jan 4 to Jan 8, 09:00-10:00 UTC. */
  const seriesOfFive = async () => {
    const { exhibitId } = await createScheduledExhibit(setup.server, { admin: setup.admin, organizationId: setup.organizationId });
    const res = await setup.developer.post(schedulesPath(exhibitId), dailyBody(8));
    expect(res.status).toBe(200);
    expect(res.body.schedules).toHaveLength(5);
    return { exhibitId, series: res.body.schedules as any[] };
  };
  const volumeOf = (event: any) => event.manifest.settings.find((s: any) => s.settingId === 'volume')?.value;
  const louder = { eventName: 'Loud hours', manifest: { controls: [], settings: [{ settingId: 'volume', value: 9 }], strapiContent: [] } };

  it('changes one occurrence only with changeAll false (its name, time and changes)', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const third = series[2];
    const res = await setup.developer.put(schedulesPath(third.id), putBody(third, { ...louder, startDate: utc(1, 6, '11:00'), endDate: utc(1, 6, '12:00') }));
    expect(res.status).toBe(200);
    expect(res.body.schedules).toHaveLength(1);
    expect(res.body.schedules[0]).toMatchObject({ id: third.id, name: 'Loud hours', startDate: utc(1, 6, '11:00'), endDate: utc(1, 6, '12:00'), recurringId: third.recurringId, state: 'scheduled' });
    expect(res.body.schedules[0].schedulesettings).toEqual([{ settingId: 'volume', setting: 'Volume', value: 9, listName: null }]);

    const after = await list(exhibitId);
    expect(after.map((s: any) => s.id)).toEqual(series.map((s) => s.id));
    expect(names(after)).toEqual(['Quiet hours', 'Quiet hours', 'Loud hours', 'Quiet hours', 'Quiet hours']);
    expect(after.map(volumeOf)).toEqual([3, 3, 9, 3, 3]);
    expect(starts(after)).toEqual([utc(1, 4), utc(1, 5), utc(1, 6, '11:00'), utc(1, 7), utc(1, 8)]);
  });

  it('rewrites the series from the edited occurrence on with changeAll true, in the same series', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const third = series[2];
    const body = putBody(third, { ...louder, startDate: utc(1, 6, '11:00'), endDate: utc(1, 6, '12:30'), changeAll: true });
    const res = await setup.developer.put(schedulesPath(third.id), body);
    expect(res.status).toBe(200);
    expect(starts(res.body.schedules)).toEqual([6, 7, 8].map((d) => utc(1, d, '11:00')));
    for (const s of res.body.schedules) {
      expect(s).toMatchObject({ name: 'Loud hours', recurringId: third.recurringId, recurring: true, frequency: DAILY, state: 'scheduled' });
      expect(Date.parse(s.endDate) - Date.parse(s.startDate)).toBe(90 * 60_000);
    }

    // The occurrences before the edited one are left as they were.
    const after = await list(exhibitId);
    expect(starts(after)).toEqual([utc(1, 4), utc(1, 5), ...[6, 7, 8].map((d) => utc(1, d, '11:00'))]);
    expect(after.slice(0, 2)).toEqual(series.slice(0, 2));
    expect(names(after)).toEqual(['Quiet hours', 'Quiet hours', 'Loud hours', 'Loud hours', 'Loud hours']);
    expect(new Set(after.map((s: any) => s.recurringId))).toEqual(new Set([third.recurringId]));
  });

  it('refuses a change of the frequency or of the series end without changeAll (400), and applies it with changeAll', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const custom = { label: 'Custom', value: 'Custom', altValue: '0101010' };
    const frequency = await setup.developer.put(schedulesPath(series[0].id), putBody(series[0], { selectedFrequency: custom }));
    expect([frequency.status, frequency.body.response]).toEqual([400, NEEDS_CHANGE_ALL]);
    const end = await setup.developer.put(schedulesPath(series[0].id), putBody(series[0], { recurringEndDate: utc(1, 20) }));
    expect([end.status, end.body.response]).toEqual([400, NEEDS_CHANGE_ALL]);
    expect(await list(exhibitId)).toEqual(series);

    const all = await setup.developer.put(schedulesPath(series[0].id), putBody(series[0], { selectedFrequency: custom, recurringEndDate: utc(1, 17), changeAll: true }));
    expect(all.status).toBe(200);
    const after = await list(exhibitId);
    expect(after.map((s: any) => new Date(s.startDate).getUTCDay()).every((d: number) => [1, 3, 5].includes(d))).toBe(true);
    expect(after).toHaveLength(6);
    expect(after.every((s: any) => s.recurringId === series[0].recurringId && s.frequency.altValue === '0101010')).toBe(true);
  });

  it('turns a single event into a series', async () => {
    const { exhibitId } = await createScheduledExhibit(setup.server, { admin: setup.admin, organizationId: setup.organizationId });
    const single = (await setup.developer.post(schedulesPath(exhibitId), eventBody())).body.schedules[0];
    const res = await setup.developer.put(
      schedulesPath(single.id),
      putBody(single, { recurring: true, selectedFrequency: DAILY, recurringEndDate: utc(1, 7, '06:00') }),
    );
    expect(res.status).toBe(200);
    expect(starts(res.body.schedules)).toEqual([4, 5, 6, 7].map((d) => utc(1, d)));
    const after = await list(exhibitId);
    expect(starts(after)).toEqual([4, 5, 6, 7].map((d) => utc(1, d)));
    const recurringId = after[0].recurringId;
    expect(recurringId).toEqual(expect.any(String));
    expect(after.every((s: any) => s.recurring && s.recurringId === recurringId && s.recurringEndDate === utc(1, 7, '06:00'))).toBe(true);
  });

  it('turns a series into a single event with changeAll (never without)', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const body = putBody(series[0], { recurring: false, selectedFrequency: null, recurringEndDate: null, eventName: 'Once' });
    const refused = await setup.developer.put(schedulesPath(series[0].id), body);
    expect([refused.status, refused.body.response]).toEqual([400, NEEDS_CHANGE_ALL]);

    const res = await setup.developer.put(schedulesPath(series[0].id), { ...body, changeAll: true });
    expect(res.status).toBe(200);
    expect(res.body.schedules).toHaveLength(1);
    const after = await list(exhibitId);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ name: 'Once', startDate: utc(1, 4), endDate: utc(1, 4, '10:00'), recurring: false, recurringId: null, frequency: null });
  });

  it('deletes one occurrence, then the whole series', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const recurringId = series[0].recurringId;
    const one = await setup.developer.delete(`${schedulesPath(series[1].id)}?changeAll=false&recurringId=${recurringId}`);
    expect([one.status, one.body]).toEqual([200, { deleted: 1 }]);
    expect((await list(exhibitId)).map((s: any) => s.id)).toEqual([series[0], ...series.slice(2)].map((s) => s.id));

    const all = await setup.developer.delete(`${schedulesPath(series[3].id)}?changeAll=true&recurringId=${recurringId}`);
    expect([all.status, all.body]).toEqual([200, { deleted: 4 }]);
    expect(await list(exhibitId)).toEqual([]);
    expect((await setup.developer.delete(schedulesPath(series[0].id))).status).toBe(404);
  });

  it('deletes only the event itself when a single event is deleted with changeAll', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const single = (await setup.developer.post(schedulesPath(exhibitId), eventBody({ startDate: utc(2, 1), endDate: null }))).body.schedules[0];
    const res = await setup.developer.delete(`${schedulesPath(single.id)}?changeAll=true`);
    expect([res.status, res.body]).toEqual([200, { deleted: 1 }]);
    expect(await list(exhibitId)).toEqual(series);
  });

  it('refuses a delete naming another series (400) and deletes nothing', async () => {
    const { exhibitId, series } = await seriesOfFive();
    const other = (await seriesOfFive()).series[0].recurringId;
    const res = await setup.developer.delete(`${schedulesPath(series[0].id)}?changeAll=true&recurringId=${other}`);
    expect([res.status, res.body.response]).toEqual([400, 'recurringId: the event is not in that series']);
    expect(await list(exhibitId)).toEqual(series);
  });
});

describe('an occurrence that already ran', () => {
  let setup: Setup;
  let clock: FakeClock;
  beforeAll(async () => {
    // The server's clock stands still until moved: the occurrence becomes due when the test says, and runs on POST /run.
    clock = createFakeClock();
    setup = await startSetup({ clock });
  });
  afterAll(async () => {
    await setup?.server.stop();
  });

  it('cannot be edited (409), alone or with its series, while the later occurrences still can', async () => {
    const { exhibitId } = await createScheduledExhibit(setup.server, { admin: setup.admin, organizationId: setup.organizationId });
    const start = clock.now().getTime() + 2 * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const day = 86_400_000;
    const body = eventBody({ startDate: iso(start), endDate: iso(start + 30 * 60_000), recurring: true, selectedFrequency: DAILY, recurringEndDate: iso(start + 2 * day) });
    const series = (await setup.developer.post(schedulesPath(exhibitId), body)).body.schedules;
    expect(series).toHaveLength(3);

    clock.advance(3 * 60_000);
    const ran = await setup.admin.post('/exhibit-management/scheduling/run');
    expect([ran.status, ran.body]).toEqual([200, { started: 1, ended: 0, missed: 0 }]);
    const [first] = (await setup.developer.get(schedulesPath(exhibitId))).body.schedules;
    expect(first.id).toBe(series[0].id);
    expect(first).toMatchObject({ state: 'completed', completed: true, endState: 'pending', outcome: ['Setting "volume": 3'], ranAt: clock.now().toISOString() });

    const one = await setup.developer.put(schedulesPath(first.id), putBody(first, { eventName: 'Renamed' }));
    expect([one.status, one.body.response]).toEqual([409, ALREADY_RAN]);
    const all = await setup.developer.put(schedulesPath(first.id), putBody(first, { eventName: 'Renamed', changeAll: true }));
    expect([all.status, all.body.response]).toEqual([409, ALREADY_RAN]);

    // The next occurrences change; the one that ran is kept as it was.
    const next = series[1];
    const rest = await setup.developer.put(schedulesPath(next.id), putBody(next, { eventName: 'Renamed', changeAll: true }));
    expect(rest.status).toBe(200);
    expect(names(rest.body.schedules)).toEqual(['Renamed', 'Renamed']);
    const after = (await setup.developer.get(schedulesPath(exhibitId))).body.schedules;
    expect(after[0]).toEqual(first);
    expect(names(after)).toEqual(['Quiet hours', 'Renamed', 'Renamed']);
  });

  it('cannot be edited when it was a single event (409)', async () => {
    const { exhibitId } = await createScheduledExhibit(setup.server, { admin: setup.admin, organizationId: setup.organizationId });
    const start = clock.now().getTime() + 60_000;
    const single = (await setup.developer.post(schedulesPath(exhibitId), eventBody({ startDate: new Date(start).toISOString(), endDate: null }))).body.schedules[0];
    clock.advance(2 * 60_000);
    expect((await setup.admin.post('/exhibit-management/scheduling/run')).body.started).toBe(1);
    const res = await setup.developer.put(schedulesPath(single.id), putBody(single, { eventName: 'Renamed' }));
    expect([res.status, res.body.response]).toEqual([409, ALREADY_RAN]);
  });
});
