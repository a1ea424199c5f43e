import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayMessage } from '@plinth/shared';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createWorld } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { scheduleTestManifest } from '../../test/schedule-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { findExhibitState } from '../exhibit-runtime/exhibit-runtime.repository.js';
import { listSettingCandidates } from '../exhibit-runtime/exhibit-settings.repository.js';
import { findScheduledEvent, insertScheduledEvents } from './scheduling.repository.js';

/**
 * The executor on one node with a real clock: events run on time and once, changes reach online
 * exhibits (or wait as desired state for offline ones), the end puts back what is still the
 * event's, and occurrences whose time passed long ago are marked missed, never run.
 */

const MANIFEST = scheduleTestManifest(1);
/** Waits generous enough for a shared, slow machine. */
const LONG = 30_000;

let server: TestServer;
let admin: TestClient;
let siteId: string;
const sockets: ExhibitSocket[] = [];

beforeAll(async () => {
  // A short lease, so that a run whose node 'died' is taken over within the test.
  server = await startTestServer({ SCHEDULER_POLL_MS: '250', SCHEDULER_LEASE_MS: '2000' });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  siteId = (await createWorld(server)).siteA.id;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
});

/** An exhibit whose SDK sent the manifest; its socket stays open (online) unless `offline`. */
async function exhibitWithManifest(options: { offline?: boolean } = {}): Promise<{ id: string; sdk: ExhibitSocket }> {
  const id = (await createExhibit(server.deps.db, siteId)).id;
  const sdk = await openExhibitSocket(server, admin, id);
  sockets.push(sdk);
  sdk.send({ type: 'manifest', requestId: 'm', manifest: MANIFEST });
  await sdk.waitFor((m) => m.type === 'exhibit.synced');
  if (options.offline) {
    sdk.close();
    await waitUntil(async () => (await findExhibitState(server.deps.db, id))?.online === false, 'the exhibit offline', LONG);
  }
  return { id, sdk };
}

type Changes = { settings?: { settingId: string; value: string | number }[]; controls?: { controlId: string }[]; opMode?: 'On' | 'Off' };

/** POST an event starting `inMs` from now (ending `endMs` after its start, or never). */
async function schedule(exhibitId: string, event: { name: string; inMs: number; endMs?: number; changes: Changes }) {
  const start = Date.now() + event.inMs;
  const res = await admin.post(`/exhibit-management/scheduling/${exhibitId}`, {
    manifest: { settings: event.changes.settings ?? [], controls: event.changes.controls ?? [], strapiContent: [], opMode: event.changes.opMode ?? null },
    eventName: event.name,
    startDate: new Date(start).toISOString(),
    endDate: event.endMs === undefined ? null : new Date(start + event.endMs).toISOString(),
    recurring: false,
  });
  expect(res.status).toBe(200);
  return res.body.schedules[0] as { id: string; startDate: string };
}

type Presented = { id: string; name: string; state: string; completed: boolean; ranAt: string | null; startDate: string; endState: string; outcome: string[] };

async function eventOf(exhibitId: string, id: string): Promise<Presented> {
  const res = await admin.get(`/exhibit-management/scheduling/${exhibitId}`);
  expect(res.status).toBe(200);
  return (res.body.schedules as Presented[]).find((s) => s.id === id)!;
}

/** Waits until the event is in one of `states` (GET answers it), and answers it. */
async function eventIn(exhibitId: string, id: string, check: (e: Presented) => boolean, what: string): Promise<Presented> {
  return waitUntil(async () => {
    const event = await eventOf(exhibitId, id);
    return check(event) ? event : undefined;
  }, what, LONG);
}

/** The exhibit's 'schedule' log lines (the server's record, read through GET /logging/exhibit). */
async function scheduleLog(exhibitId: string): Promise<{ level: string; message: string }[]> {
  await server.deps.logs.flush();
  const res = await admin.get(`/logging/exhibit?exhibitId=${exhibitId}&start=${Date.now() - 3_600_000}&end=${Date.now() + 60_000}&pageIdx=0&logsPerPage=100`);
  expect(res.status).toBe(200);
  return (res.body.logs as { eventType: string; level: string; message: string }[]).filter((l) => l.eventType === 'schedule');
}

async function settingValue(exhibitId: string, settingId: string): Promise<unknown> {
  return (await listSettingCandidates(server.deps.db, exhibitId, { settingKey: settingId, inList: false }))[0]?.value;
}

function settingChanges(messages: GatewayMessage[], settingId: string): unknown[] {
  return messages.flatMap((m) => (m.type === 'setting.changed' && m.settingId === settingId ? [m.value] : []));
}

describe('the scheduler on one node', () => {
  it('runs an event on time, once, on an online exhibit, logs it, and puts back at the end what is still its own', { timeout: 90_000 }, async () => {
    const { id, sdk } = await exhibitWithManifest();
    const created = await schedule(id, {
      name: 'Evening',
      inMs: 2000,
      endMs: 4000,
      changes: { settings: [{ settingId: 'kiosk_name', value: 'Hall' }, { settingId: 'level', value: 8 }], controls: [{ controlId: 'c0' }], opMode: 'On' },
    });

    const ran = await eventIn(id, created.id, (e) => e.completed, 'the event completed');
    expect(ran.state).toBe('completed');
    // The time the task sets: within 5 s of its start (the poll is 250 ms).
    expect(Date.parse(ran.ranAt!) - Date.parse(created.startDate)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(ran.ranAt!) - Date.parse(created.startDate)).toBeLessThan(5000);
    expect(ran.endState).toBe('pending');
    expect(ran.outcome).toEqual(['Setting "kiosk_name": "Hall"', 'Setting "level": 8', 'Op mode: On', 'Control "c0": delivered']);
    await sdk.waitFor((m) => m.type === 'setting.changed' && m.settingId === 'kiosk_name' && m.value === 'Hall');
    await sdk.waitFor((m) => m.type === 'control.fired' && m.controlId === 'c0');
    await sdk.waitFor((m) => m.type === 'opMode.changed' && m.opMode === 'On');
    expect((await findExhibitState(server.deps.db, id))?.opMode).toBe('On');
    await waitUntil(async () => (await scheduleLog(id)).find((l) => l.message.startsWith('Scheduled event "Evening" ran')), 'the run in the log', LONG);

    // Someone changes `level` between the start and the end: the end keeps it.
    expect((await admin.post(`/exhibit-management/exhibit/${id}/setting/level`, { value: 3 })).status).toBe(200);

    const ended = await eventIn(id, created.id, (e) => e.endState === 'restored', 'the end put back');
    expect(ended.outcome.slice(4)).toEqual(['Setting "kiosk_name": back to "Lobby"', 'Setting "level": kept (changed since)', 'Op mode: back to Off']);
    expect(await settingValue(id, 'kiosk_name')).toBe('Lobby');
    expect(await settingValue(id, 'level')).toBe(3);
    expect((await findExhibitState(server.deps.db, id))?.opMode).toBe('Off');
    await sdk.waitFor((m) => m.type === 'opMode.changed' && m.opMode === 'Off');
    await waitUntil(() => settingChanges(sdk.messages, 'kiosk_name').at(-1) === 'Lobby', 'the old value back on the SDK', LONG);
    expect(settingChanges(sdk.messages, 'kiosk_name')).toEqual(['Hall', 'Lobby']);
    // Ran once: one control, one start line and one end line in the log.
    expect(sdk.messages.filter((m) => m.type === 'control.fired')).toHaveLength(1);
    const log = await waitUntil(async () => {
      const lines = await scheduleLog(id);
      return lines.some((l) => l.message.startsWith('Scheduled event "Evening" ended')) ? lines : undefined;
    }, 'the end in the log', LONG);
    expect(log.filter((l) => l.message.startsWith('Scheduled event "Evening" ran'))).toHaveLength(1);
    expect(log.filter((l) => l.message.startsWith('Scheduled event "Evening" ended'))).toHaveLength(1);
  });

  it('stores a setting for an offline exhibit as desired state (the SDK gets it on connecting) and records its control as failed', { timeout: 90_000 }, async () => {
    const { id } = await exhibitWithManifest({ offline: true });
    const mixed = await schedule(id, { name: 'Night', inMs: 1500, changes: { settings: [{ settingId: 'kiosk_name', value: 'Night' }], controls: [{ controlId: 'c0' }] } });
    const onlyControl = await schedule(id, { name: 'Reload', inMs: 1500, changes: { controls: [{ controlId: 'c0' }] } });

    const first = await eventIn(id, mixed.id, (e) => e.state !== 'scheduled' && e.state !== 'running', 'the mixed event run');
    // The setting was made, so the occurrence completed; its control failed.
    expect(first.state).toBe('completed');
    expect(first.outcome[0]).toBe('Setting "kiosk_name": "Night"');
    expect(first.outcome[1]).toMatch(/^Control "c0": failed \(.+\)$/);
    const second = await eventIn(id, onlyControl.id, (e) => e.state !== 'scheduled' && e.state !== 'running', 'the control-only event run');
    expect(second.state).toBe('failed');
    expect(second.completed).toBe(false);
    expect(second.outcome).toEqual([expect.stringMatching(/^Control "c0": failed \(.+\)$/)]);
    const log = await waitUntil(async () => {
      const lines = await scheduleLog(id);
      return lines.filter((l) => l.message.includes(' ran (')).length === 2 ? lines : undefined;
    }, 'both runs in the log', LONG);
    const reload = log.find((l) => l.message.startsWith('Scheduled event "Reload" ran'))!;
    expect(reload.level).toBe('warn');
    expect(reload.message).toContain('Control "c0": failed');

    // The SDK connecting afterwards is synced with the scheduled value.
    const sdk = await openExhibitSocket(server, admin, id);
    sockets.push(sdk);
    sdk.send({ type: 'manifest', requestId: 'm', manifest: MANIFEST });
    const synced = (await sdk.waitFor((m) => m.type === 'exhibit.synced')) as Extract<GatewayMessage, { type: 'exhibit.synced' }>;
    expect(synced.settings.find((s) => s.settingId === 'kiosk_name')?.value).toBe('Night');
    expect(sdk.messages.some((m) => m.type === 'control.fired')).toBe(false);
  });

  it('marks an occurrence more than 5 minutes late missed without applying it, and runs one 2 minutes late', { timeout: 90_000 }, async () => {
    const { id, sdk } = await exhibitWithManifest();
    const now = Date.now();
    const change = (settingId: string, value: string | number) => ({ settings: [{ settingId, value }], controls: [], strapiContent: [], opMode: null });
    const [missed, late] = await insertScheduledEvents(server.deps.db, [
      { exhibitId: id, name: 'Long ago', startDate: new Date(now - 10 * 60_000), endDate: null, recurring: false, changes: change('kiosk_name', 'Too late') },
      { exhibitId: id, name: 'A bit late', startDate: new Date(now - 2 * 60_000), endDate: null, recurring: false, changes: change('level', 42) },
    ]);
    const run = await admin.post('/exhibit-management/scheduling/run');
    expect(run.status).toBe(200);

    const gone = await eventIn(id, missed!.id, (e) => e.state !== 'scheduled', 'the old occurrence marked');
    expect(gone.state).toBe('missed');
    expect(gone.ranAt).toBeNull();
    expect(gone.outcome).toEqual([]);
    const ran = await eventIn(id, late!.id, (e) => e.completed, 'the late occurrence run');
    expect(ran.outcome).toEqual(['Setting "level": 42']);
    expect(await settingValue(id, 'level')).toBe(42);
    expect(await settingValue(id, 'kiosk_name')).toBe('Lobby');
    await sdk.waitFor((m) => m.type === 'setting.changed' && m.settingId === 'level' && m.value === 42);
    expect(settingChanges(sdk.messages, 'kiosk_name')).toEqual([]);
    const log = await waitUntil(async () => {
      const lines = await scheduleLog(id);
      return lines.length >= 2 ? lines : undefined;
    }, 'the missed and the late run in the log', LONG);
    const missedLine = log.find((l) => l.message.startsWith('Scheduled event "Long ago"'))!;
    expect(missedLine.level).toBe('warn');
    expect(missedLine.message).toMatch(/missed/);
    expect(log.some((l) => l.message.startsWith('Scheduled event "A bit late" ran'))).toBe(true);
  });

  it('resumes a run cut between a change and its record: the setting is redone and restored to its old value, the control is not fired again', { timeout: 90_000 }, async () => {
    const db = server.deps.db;
    // The node 'dies' right after a change: recording any step done fails (and the run with it) until the trigger is dropped.
    await db.execute(sql`create function test_cut_after_change() returns trigger language plpgsql as $$
      begin
        if new.name like 'Cut %' and exists (select 1 from jsonb_array_elements(new.steps) s where s ->> 'phase' = 'done') then
          raise exception 'the node died (test)';
        end if;
        return new;
      end $$`);
    await db.execute(sql`create trigger test_cut_after_change before update on scheduled_events for each row execute function test_cut_after_change()`);
    const settingExhibit = await exhibitWithManifest();
    const controlExhibit = await exhibitWithManifest();
    const setting = await schedule(settingExhibit.id, { name: 'Cut setting', inMs: 1500, endMs: 8000, changes: { settings: [{ settingId: 'kiosk_name', value: 'Show' }] } });
    const control = await schedule(controlExhibit.id, { name: 'Cut control', inMs: 1500, changes: { controls: [{ controlId: 'c0' }] } });
    const startedOnly = async (id: string) => {
      const row = await findScheduledEvent(db, id);
      return row?.state === 'running' && row.steps.length === 1 && row.steps[0]!.phase === 'started';
    };
    try {
      await waitUntil(async () => (await startedOnly(setting.id)) && (await settingValue(settingExhibit.id, 'kiosk_name')) === 'Show', 'the setting made, not recorded', LONG);
      await waitUntil(async () => (await startedOnly(control.id)) && controlExhibit.sdk.messages.some((m) => m.type === 'control.fired'), 'the control fired, not recorded', LONG);
    } finally {
      await db.execute(sql`drop trigger test_cut_after_change on scheduled_events`);
      await db.execute(sql`drop function test_cut_after_change()`);
    }

    // Once the lease runs out the row is taken again and finished from its steps.
    const resumedSetting = await eventIn(settingExhibit.id, setting.id, (e) => e.completed, 'the setting run finished');
    expect(resumedSetting.outcome).toEqual(['Setting "kiosk_name": "Show"']);
    const resumedControl = await eventIn(controlExhibit.id, control.id, (e) => e.state !== 'running', 'the control run finished');
    expect(resumedControl.outcome).toEqual(['Control "c0": not confirmed (the server running it stopped)']);
    expect(controlExhibit.sdk.messages.filter((m) => m.type === 'control.fired')).toHaveLength(1);
    for (const id of [setting.id, control.id]) {
      expect((await findScheduledEvent(db, id))!.steps.map((s) => [s.step, s.phase])).toEqual([
        [0, 'started'],
        [0, 'done'],
      ]);
    }

    // The end puts back the value from before the event, not the one the cut run had written.
    const ended = await eventIn(settingExhibit.id, setting.id, (e) => e.endState === 'restored', 'the end put back');
    expect(ended.outcome).toEqual(['Setting "kiosk_name": "Show"', 'Setting "kiosk_name": back to "Lobby"']);
    expect(await settingValue(settingExhibit.id, 'kiosk_name')).toBe('Lobby');
  });
});
