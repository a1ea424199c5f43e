import { expect } from 'vitest';
import { openExhibitSocket } from './exhibit-socket.js';
import { createExhibit, createSite } from './factories.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

/** Helpers of the scheduling calls tests (modules/scheduling): an exhibit with a manifest in a site's zone, event bodies, dates. */

/** A manifest with a plain and a group control, a bounded integer and a file setting. */
export const SCHEDULE_TEST_MANIFEST = {
  controls: [
    { id: 'restart', type: 'Single', display: 'Restart' },
    { id: 'scenes', type: 'Group', display: 'Scenes', items: [{ id: 'day', display: 'Day' }, { id: 'night', display: 'Night' }] },
  ],
  settings: [
    { id: 'volume', type: 'IntegerInput', display: 'Volume', min: 0, max: 10, default: 5 },
    { id: 'video', type: 'FileSelection', display: 'Video', default: 'fallback.mp4' },
  ],
};

/** Next year, so every date below is in the future whenever the suite runs. */
export const YEAR = new Date().getUTCFullYear() + 1;

/** An ISO instant in UTC, next year: month 1-12. */
export function utc(month: number, day: number, time = '09:00'): string {
  return new Date(`${YEAR}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}:00.000Z`).toISOString();
}

export const DAILY = { label: 'Daily', value: 'Daily', altValue: '1111111' };

/** A POST body: one quiet-hours event on Jan 4, 09:00 to 10:00 UTC, setting the volume to 3. */
export function eventBody(overrides: Record<string, unknown> = {}): any {
  return {
    manifest: { controls: [], settings: [{ settingId: 'volume', value: 3 }], strapiContent: [] },
    eventName: 'Quiet hours',
    startDate: utc(1, 4),
    endDate: utc(1, 4, '10:00'),
    recurring: false,
    selectedFrequency: null,
    recurringEndDate: null,
    ...overrides,
  };
}

/** A series body: daily from Jan 4 09:00-10:00 UTC to the day of `lastDay` (Jan). */
export function dailyBody(lastDay: number, overrides: Record<string, unknown> = {}): any {
  return eventBody({ recurring: true, selectedFrequency: DAILY, recurringEndDate: utc(1, lastDay, '06:00'), ...overrides });
}

export const schedulesPath = (id: string) => `/exhibit-management/scheduling/${id}`;

/** A site in the time zone with an exhibit whose SDK sent the manifest (then disconnected). */
export async function createScheduledExhibit(server: TestServer, setup: { admin: TestClient; organizationId: string; timeZone?: string }) {
  const db = server.deps.db;
  const site = await createSite(db, setup.organizationId);
  const zone = await setup.admin.put(`/org-management/site/setting/${site.id}/site_time_zone`, { value: setup.timeZone ?? 'UTC' });
  expect(zone.status).toBe(200);
  const exhibit = await createExhibit(db, site.id);
  const sdk = await openExhibitSocket(server, setup.admin, exhibit.id);
  sdk.send({ type: 'manifest', requestId: 'm', manifest: SCHEDULE_TEST_MANIFEST });
  await sdk.waitFor((m) => m.type === 'exhibit.synced');
  sdk.close();
  return { exhibitId: exhibit.id, siteId: site.id };
}

/** The event's fields that a PUT sends back, with the changes made. */
export function putBody(event: any, changes: Record<string, unknown>): any {
  return {
    manifest: event.manifest,
    eventName: event.name,
    startDate: event.startDate,
    endDate: event.endDate,
    recurring: event.recurring,
    selectedFrequency: event.frequency,
    recurringEndDate: event.recurringEndDate,
    exhibitId: event.exhibitId,
    recurringId: event.recurringId,
    changeAll: false,
    ...changes,
  };
}

/** The start dates of occurrences, in the order given. */
export const starts = (schedules: { startDate: string }[]) => schedules.map((s) => s.startDate);
