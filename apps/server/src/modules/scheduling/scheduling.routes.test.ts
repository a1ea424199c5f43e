import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_MESSAGES, weekdayMask } from '@plinth/shared';
import { createOrganization, createWorld, eventsDuring, signUpWith, userWith } from '../../test/factories.js';
import { startLocalStore, upload, type TestStore } from '../../test/files-kit.js';
import { createScheduledExhibit, DAILY, dailyBody, eventBody, putBody, schedulesPath, starts, utc, YEAR } from '../../test/scheduling-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * The scheduling calls (spec 7.1): list, create (one event or a series computed in the site's
 * time zone), the date and change rules with their texts, the rights, and the scheduled events
 * that name a file. Series edits, deletes and an occurrence that ran are in scheduling-series.test.ts.
 * The executor polls once a minute here, so nothing runs during a test.
 */

describe('scheduling calls', () => {
  let server: TestServer;
  let store: TestStore;
  let admin: TestClient;
  let developer: TestClient;
  let developerEmail: string;
  let viewer: TestClient;
  let organizationId: string;

  beforeAll(async () => {
    store = await startLocalStore();
    server = await startTestServer({ ...store.env, SCHEDULER_POLL_MS: '60000' });
    admin = (await server.signUp({ isPlatformAdmin: true })).client;
    organizationId = (await createOrganization(server.deps.db)).id;
    const dev = await signUpWith(server, ['organization', organizationId, 'DEVELOPER']);
    developer = dev.client;
    developerEmail = dev.email;
    viewer = await userWith(server, ['organization', organizationId, 'VIEWER']);
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
  });

  const newExhibit = (timeZone = 'UTC') => createScheduledExhibit(server, { admin, organizationId, timeZone });
  const list = async (exhibitId: string, query = '') => {
    const res = await developer.get(`${schedulesPath(exhibitId)}${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('create and list', () => {
    it('creates one event and answers it with display names, waiting; GET lists it with the zone and canModify', async () => {
      const { exhibitId } = await newExhibit('Europe/Paris');
      const manifest = {
        controls: [{ controlId: 'scenes', controlGroupItemId: 'night' }, { controlId: 'restart' }],
        settings: [{ settingId: 'volume', value: 3 }],
        strapiContent: [],
        opMode: 'Off',
      };
      let res: any;
      const announced = await eventsDuring(server, 'exhibit', exhibitId, async () => {
        res = await developer.post(schedulesPath(exhibitId), eventBody({ manifest, eventName: '  Night mode ' }));
      });
      expect(res.status).toBe(200);
      // Consoles showing the exhibit read its calendar again.
      expect(announced).toContainEqual({ type: 'exhibit.schedulesChanged', exhibitId });
      expect(res.body.schedules).toHaveLength(1);
      const event = res.body.schedules[0];
      expect(event).toMatchObject({
        exhibitId,
        name: 'Night mode',
        startDate: utc(1, 4),
        endDate: utc(1, 4, '10:00'),
        recurring: false,
        recurringId: null,
        recurringStartDate: null,
        recurringEndDate: null,
        frequency: null,
        selectedFrequency: null,
        opMode: 'Off',
        completed: false,
        state: 'scheduled',
        endState: 'none',
        ranAt: null,
        outcome: [],
        createdBy: developerEmail,
        schedulecontrols: [
          { controlId: 'scenes', control: 'Scenes: Night', controlGroupItemId: 'night' },
          { controlId: 'restart', control: 'Restart', controlGroupItemId: null },
        ],
        schedulesettings: [{ settingId: 'volume', setting: 'Volume', value: 3, listName: null }],
        schedulestrapicontents: [],
      });
      expect(event.manifest).toEqual({
        controls: [{ controlId: 'scenes', controlGroupItemId: 'night' }, { controlId: 'restart' }],
        settings: [{ settingId: 'volume', value: 3 }],
        strapiContent: [],
        opMode: 'Off',
      });

      expect(await list(exhibitId)).toEqual({ schedules: [event], timeZone: 'Europe/Paris', canModify: true });
      // Viewers do not get the Scheduling tab (spec 2.1), nor its call.
      expect((await viewer.get(schedulesPath(exhibitId))).status).toBe(403);
    });

    it('lists only the occurrences starting in [start, end) when a range is given', async () => {
      const { exhibitId } = await newExhibit();
      expect((await developer.post(schedulesPath(exhibitId), dailyBody(8))).status).toBe(200);
      const range = await list(exhibitId, `?start=${encodeURIComponent(utc(1, 5))}&end=${encodeURIComponent(utc(1, 7))}`);
      expect(starts(range.schedules)).toEqual([utc(1, 5), utc(1, 6)]);
      expect((await developer.get(`${schedulesPath(exhibitId)}?start=yesterday`)).body.response).toBe('start: must be a date and time');
    });
  });

  describe('validation', () => {
    let exhibitId: string;
    beforeAll(async () => {
      exhibitId = (await newExhibit()).exhibitId;
    });

    const past = new Date(Date.now() - 60_000).toISOString();
    const manifestWith = (changes: Record<string, unknown>) => ({ manifest: { controls: [], settings: [], strapiContent: [], ...changes } });
    const cases: [string, Record<string, unknown>, string][] = [
      ['a blank name', { eventName: '   ' }, `eventName: ${SCHEDULE_MESSAGES.nameRequired}`],
      ['a start in the past', { startDate: past, endDate: null }, `startDate: ${SCHEDULE_MESSAGES.startInPast}`],
      ['an end before the start', { endDate: utc(1, 4, '08:00') }, `endDate: ${SCHEDULE_MESSAGES.endBeforeStart}`],
      ['an end equal to the start', { endDate: utc(1, 4) }, `endDate: ${SCHEDULE_MESSAGES.endBeforeStart}`],
      ['a year of 5 digits', { startDate: `${YEAR}0-01-04T09:00:00.000Z`, endDate: null }, `startDate: ${SCHEDULE_MESSAGES.yearTooLong}`],
      [
        'a recurring end less than a day after the start',
        { recurring: true, selectedFrequency: DAILY, recurringEndDate: utc(1, 4, '20:00') },
        `recurringEndDate: ${SCHEDULE_MESSAGES.recurringEndTooSoon}`,
      ],
      [
        'a daily occurrence longer than a day',
        { recurring: true, selectedFrequency: DAILY, endDate: utc(1, 5, '10:00'), recurringEndDate: utc(1, 10) },
        `endDate: ${SCHEDULE_MESSAGES.occurrenceTooLong}`,
      ],
      ['no changes at all', manifestWith({ opMode: null }), `manifest: ${SCHEDULE_MESSAGES.noChanges}`],
      ['an unknown setting', manifestWith({ settings: [{ settingId: 'brightness', value: 1 }] }), 'manifest.settings[0]: the setting "brightness" does not exist'],
      [
        'an unknown control (second in the list)',
        manifestWith({ controls: [{ controlId: 'restart' }, { controlId: 'explode' }] }),
        'manifest.controls[1]: the control "explode" does not exist',
      ],
      ['a value over the maximum', manifestWith({ settings: [{ settingId: 'volume', value: 11 }] }), 'manifest.settings[0]: Setting "volume" must be at most 10'],
      ['a value under the minimum', manifestWith({ settings: [{ settingId: 'volume', value: -1 }] }), 'manifest.settings[0]: Setting "volume" must be at least 0'],
      [
        'a group control without an item',
        manifestWith({ controls: [{ controlId: 'scenes' }] }),
        'manifest.controls[0]: the control "scenes" is a group; name one of its items (controlGroupItemId)',
      ],
      [
        'a group item that does not exist',
        manifestWith({ controls: [{ controlId: 'scenes', controlGroupItemId: 'dusk' }] }),
        'manifest.controls[0]: the control "scenes" has no item "dusk"',
      ],
      [
        'a Custom mask without a day',
        { recurring: true, selectedFrequency: { label: 'Custom', value: 'Custom', altValue: '0000000' }, recurringEndDate: utc(1, 20) },
        `selectedFrequency.altValue: ${SCHEDULE_MESSAGES.emptyMask}`,
      ],
      [
        'a Custom mask of 2 characters',
        { recurring: true, selectedFrequency: { label: 'Custom', value: 'Custom', altValue: '12' }, recurringEndDate: utc(1, 20) },
        'selectedFrequency.altValue: must be 7 characters of 0 and 1, Sunday first',
      ],
      [
        'more than 1000 occurrences',
        { recurring: true, selectedFrequency: DAILY, recurringEndDate: new Date(Date.parse(utc(1, 4)) + 1000 * 86_400_000).toISOString() },
        'recurringEndDate: a series has at most 1000 occurrences; choose an earlier recurring end date',
      ],
      ['a recurring event without a frequency', { recurring: true, recurringEndDate: utc(1, 20) }, 'selectedFrequency: choose Daily, Weekly or Custom for a recurring event'],
    ];

    it.each(cases)('refuses %s (400 naming the field) and stores nothing', async (_what, overrides, response) => {
      const res = await developer.post(schedulesPath(exhibitId), eventBody(overrides));
      expect(res.status).toBe(400);
      expect(res.body.response).toBe(response);
      expect((await list(exhibitId)).schedules).toEqual([]);
    });

    it('accepts exactly 1000 occurrences', async () => {
      const { exhibitId: fresh } = await newExhibit();
      const recurringEndDate = new Date(Date.parse(utc(1, 4)) + 999 * 86_400_000).toISOString();
      const res = await developer.post(schedulesPath(fresh), eventBody({ recurring: true, selectedFrequency: DAILY, recurringEndDate }));
      expect(res.status).toBe(200);
      expect(res.body.schedules).toHaveLength(1000);
    });
  });

  describe('recurrence', () => {
    it('Daily: one occurrence a day until the recurring end day inclusive, all of one series', async () => {
      const { exhibitId } = await newExhibit();
      // The recurring end is at 06:00 on Jan 8: the 09:00 occurrence of that day still belongs to the series.
      const res = await developer.post(schedulesPath(exhibitId), dailyBody(8));
      expect(res.status).toBe(200);
      const series = res.body.schedules;
      expect(starts(series)).toEqual([4, 5, 6, 7, 8].map((d) => utc(1, d)));
      expect(series.map((s: any) => s.endDate)).toEqual([4, 5, 6, 7, 8].map((d) => utc(1, d, '10:00')));
      const recurringId = series[0].recurringId;
      expect(recurringId).toEqual(expect.any(String));
      for (const s of series) {
        expect(s).toMatchObject({
          recurring: true,
          recurringId,
          recurringStartDate: utc(1, 4),
          recurringEndDate: utc(1, 8, '06:00'),
          frequency: DAILY,
          selectedFrequency: DAILY,
          state: 'scheduled',
        });
      }
      expect(starts((await list(exhibitId)).schedules)).toEqual(starts(series));
    });

    it("Weekly: the start's weekday only, whatever mask is sent", async () => {
      const { exhibitId } = await newExhibit();
      const weekday = new Date(utc(1, 6)).getUTCDay();
      const body = eventBody({
        startDate: utc(1, 6),
        endDate: utc(1, 6, '10:00'),
        recurring: true,
        selectedFrequency: { label: 'Weekly', value: 'Weekly', altValue: '1111111' },
        recurringEndDate: utc(1, 27, '12:00'),
      });
      const res = await developer.post(schedulesPath(exhibitId), body);
      expect(res.status).toBe(200);
      expect(starts(res.body.schedules)).toEqual([6, 13, 20, 27].map((d) => utc(1, d)));
      expect(res.body.schedules[0].frequency).toEqual({ label: 'Weekly', value: 'Weekly', altValue: weekdayMask(weekday) });
    });

    it("Custom '0101010': Mondays, Wednesdays and Fridays only", async () => {
      const { exhibitId } = await newExhibit();
      const custom = { label: 'Custom', value: 'Custom', altValue: '0101010' };
      const res = await developer.post(schedulesPath(exhibitId), dailyBody(17, { selectedFrequency: custom }));
      expect(res.status).toBe(200);
      const expected: string[] = [];
      for (let day = 4; day <= 17; day++) if ([1, 3, 5].includes(new Date(utc(1, day)).getUTCDay())) expected.push(utc(1, day));
      expect(expected).toHaveLength(6);
      expect(starts(res.body.schedules)).toEqual(expected);
      expect(res.body.schedules[0].frequency).toEqual(custom);
    });

    /** The date of the n-th (1-based; -1 the last) Sunday of March of YEAR. */
    const sundayOfMarch = (n: number) => {
      const sundays = Array.from({ length: 31 }, (_, i) => i + 1).filter((d) => new Date(Date.UTC(YEAR, 2, d)).getUTCDay() === 0);
      return n > 0 ? sundays[n - 1]! : sundays[sundays.length - 1]!;
    };
    const march = (day: number, time: string) => new Date(`${YEAR}-03-${String(day).padStart(2, '0')}T${time}:00.000Z`).toISOString();

    it.each([
      // EST is UTC-5 (09:00 = 14:00Z), EDT UTC-4 (09:00 = 13:00Z); the change is the second Sunday of March.
      { zone: 'America/New_York', change: () => sundayOfMarch(2), before: '14:00', after: '13:00' },
      // CET is UTC+1 (09:00 = 08:00Z), CEST UTC+2 (09:00 = 07:00Z); the change is the last Sunday of March.
      { zone: 'Europe/Paris', change: () => sundayOfMarch(-1), before: '08:00', after: '07:00' },
    ])('a daily 09:00 event in $zone stays at 09:00 local time across the daylight-saving change', async ({ zone, change, before, after }) => {
      const { exhibitId } = await newExhibit(zone);
      const sunday = change();
      const first = sunday - 2;
      const body = eventBody({
        startDate: march(first, before),
        endDate: march(first, before.replace(/^(\d\d)/, (h) => String(Number(h) + 1).padStart(2, '0'))),
        recurring: true,
        selectedFrequency: DAILY,
        recurringEndDate: march(sunday + 2, '12:00'),
      });
      const res = await developer.post(schedulesPath(exhibitId), body);
      expect(res.status).toBe(200);
      const days = [first, first + 1, sunday, sunday + 1, sunday + 2];
      expect(starts(res.body.schedules)).toEqual(days.map((d) => march(d, d < sunday ? before : after)));
      // Each occurrence lasts an hour of local time as the first did.
      for (const s of res.body.schedules) expect(Date.parse(s.endDate) - Date.parse(s.startDate)).toBe(3_600_000);
      const local = res.body.schedules.map((s: any) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(new Date(s.startDate)));
      expect(local).toEqual(days.map(() => '09:00'));
      expect((await list(exhibitId)).timeZone).toBe(zone);
    });
  });

  describe('rights', () => {
    it('refuses a viewer the calendar and every change (403): the tab is not theirs (spec 2.1)', async () => {
      const { exhibitId } = await newExhibit();
      const event = (await developer.post(schedulesPath(exhibitId), eventBody())).body.schedules[0];
      expect((await viewer.get(schedulesPath(exhibitId))).status).toBe(403);
      const create = await viewer.post(schedulesPath(exhibitId), eventBody());
      expect(create.status).toBe(403);
      expect((await viewer.put(schedulesPath(event.id), putBody(event, { eventName: 'Mine' }))).status).toBe(403);
      expect((await viewer.delete(`${schedulesPath(event.id)}?changeAll=false`)).status).toBe(403);
      expect((await viewer.delete(`/exhibit-management/scheduling/schedulesetting/file/a.mp4?exhibitId=${exhibitId}`)).status).toBe(403);
      expect((await list(exhibitId)).schedules).toEqual([event]);
    });

    it("answers 404 to another organization's user on every call", async () => {
      const { exhibitId } = await newExhibit();
      const event = (await developer.post(schedulesPath(exhibitId), eventBody())).body.schedules[0];
      const { outsider } = await createWorld(server);
      expect((await outsider.get(schedulesPath(exhibitId))).status).toBe(404);
      expect((await outsider.post(schedulesPath(exhibitId), eventBody())).status).toBe(404);
      expect((await outsider.put(schedulesPath(event.id), putBody(event, { eventName: 'Mine' }))).status).toBe(404);
      expect((await outsider.delete(schedulesPath(event.id))).status).toBe(404);
      expect((await outsider.delete(`/exhibit-management/scheduling/schedulesetting/file/a.mp4?exhibitId=${exhibitId}`)).status).toBe(404);
      expect((await list(exhibitId)).schedules).toEqual([event]);
    });

    it('answers 404 to a PUT naming another exhibit than the event’s, and to an unknown event', async () => {
      const { exhibitId } = await newExhibit();
      const { exhibitId: otherExhibit } = await newExhibit();
      const event = (await developer.post(schedulesPath(exhibitId), eventBody())).body.schedules[0];
      const moved = await developer.put(schedulesPath(event.id), putBody(event, { exhibitId: otherExhibit }));
      expect([moved.status, moved.body.response]).toEqual([404, 'The scheduled event does not exist.']);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await developer.put(schedulesPath(unknown), putBody(event, {}))).status).toBe(404);
      expect((await developer.delete(schedulesPath(unknown))).status).toBe(404);
    });

    it('answers 401 when signed out', async () => {
      const { exhibitId } = await newExhibit();
      const event = (await developer.post(schedulesPath(exhibitId), eventBody())).body.schedules[0];
      const anonymous = server.client();
      expect((await anonymous.get(schedulesPath(exhibitId))).status).toBe(401);
      expect((await anonymous.post(schedulesPath(exhibitId), eventBody())).status).toBe(401);
      expect((await anonymous.put(schedulesPath(event.id), putBody(event, {}))).status).toBe(401);
      expect((await anonymous.delete(schedulesPath(event.id))).status).toBe(401);
      expect((await anonymous.delete(`/exhibit-management/scheduling/schedulesetting/file/a.mp4?exhibitId=${exhibitId}`)).status).toBe(401);
      expect((await anonymous.post('/exhibit-management/scheduling/run')).status).toBe(401);
    });

    it('lets only a platform admin run the scheduler by hand', async () => {
      const refused = await developer.post('/exhibit-management/scheduling/run');
      expect([refused.status, refused.body.response]).toEqual([403, 'Only platform admins may run the scheduler by hand.']);
      const ran = await admin.post('/exhibit-management/scheduling/run');
      expect(ran.status).toBe(200);
      // Every event of this suite is next year: nothing is due.
      expect(ran.body).toEqual({ started: 0, ended: 0, missed: 0 });
    });
  });

  describe('events naming a file', () => {
    const fileChanges = (eventName: string) => ({
      eventName,
      manifest: { controls: [], settings: [{ settingId: 'video', value: 'a.mp4' }, { settingId: 'volume', value: 3 }], strapiContent: [] },
    });
    const fileEvent = (eventName: string) => eventBody(fileChanges(eventName));

    it('blocks deleting a file that a waiting event uses (409 listing it); confirmed, the event loses that change', async () => {
      const where = await newExhibit();
      expect((await upload(admin, where, [{ name: 'a.mp4', content: 'clip', type: 'video/mp4' }])).status).toBe(200);
      const event = (await developer.post(schedulesPath(where.exhibitId), fileEvent('Play a'))).body.schedules[0];
      expect(event.schedulesettings.map((s: any) => [s.settingId, s.setting, s.value])).toEqual([
        ['video', 'Video', 'a.mp4'],
        ['volume', 'Volume', 3],
      ]);
      const path = `/content/files/?siteId=${where.siteId}&exhibitId=${where.exhibitId}&fileName=a.mp4`;

      const refused = await admin.delete(path);
      expect(refused.status).toBe(409);
      expect(refused.body.details.events).toEqual([{ id: event.id, name: 'Play a', startDate: event.startDate }]);
      expect((await list(where.exhibitId)).schedules[0].manifest.settings).toHaveLength(2);

      const confirmed = await admin.delete(`${path}&confirm=true`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.reset.events).toEqual([{ id: event.id, name: 'Play a', startDate: event.startDate }]);
      const [after] = (await list(where.exhibitId)).schedules;
      expect(after.manifest.settings).toEqual([{ settingId: 'volume', value: 3 }]);
      expect(after.schedulesettings).toEqual([{ settingId: 'volume', setting: 'Volume', value: 3, listName: null }]);
    });

    it('removes a file from the waiting events of the exhibit by the scheduling call', async () => {
      const { exhibitId } = await newExhibit();
      expect((await developer.post(schedulesPath(exhibitId), fileEvent('Play a'))).status).toBe(200);
      expect((await developer.post(schedulesPath(exhibitId), dailyBody(6, fileChanges('Play a daily')))).body.schedules).toHaveLength(3);
      const other = await developer.post(schedulesPath(exhibitId), eventBody({ eventName: 'Other file', manifest: { settings: [{ settingId: 'video', value: 'b.mp4' }] } }));
      expect(other.status).toBe(200);
      const path = `/exhibit-management/scheduling/schedulesetting/file/a.mp4?exhibitId=${exhibitId}`;

      const res = await developer.delete(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, events: 4 });
      const schedules = (await list(exhibitId)).schedules;
      const settingsByName = schedules.map((s: any) => [s.name, s.manifest.settings.map((c: any) => c.value)]);
      expect(settingsByName).toEqual(
        expect.arrayContaining([
          ['Play a', [3]],
          ['Play a daily', [3]],
          ['Other file', ['b.mp4']],
        ]),
      );
      expect(schedules.filter((s: any) => s.manifest.settings.some((c: any) => c.value === 'a.mp4'))).toEqual([]);
      expect((await developer.delete(path)).body).toEqual({ ok: true, events: 0 });
    });
  });
});
