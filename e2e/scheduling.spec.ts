import type { Page } from '@playwright/test';
import { createExhibitWithToken, createPlace, test, type ExhibitManifest } from './devices.js';
import { ADMIN, expect, signIn, type Api } from './fixtures.js';

/** The exhibit program: a theme it shows and a control that restarts its show. */
const MANIFEST: ExhibitManifest = {
  controls: [{ id: 'restart', type: 'Single', display: 'Restart show' }],
  settings: [{ id: 'theme', type: 'TextInput', display: 'Theme', default: 'day' }],
};

type Ids = { organization: { id: string }; site: { id: string } };
const schedulingPath = ({ organization, site }: Ids, exhibitId: string) =>
  `/organization/${organization.id}/site/${site.id}/exhibits/${exhibitId}/scheduling`;

type Occurrence = { id: string; name: string; startDate: string; state: string; recurringId: string | null };
type Schedules = { schedules: Occurrence[]; timeZone: string };

const MINUTE = 60_000;

/** An instant as the form's datetime-local fields take it: the wall clock of the zone, to the minute. */
function wallClock(at: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** The calendar's drawing of an occurrence (its tooltip is "name: state"). */
/**
 * An event's block in the calendar. An event that crosses midnight is drawn as one block a day
 * (the hour-long event of the first test does when the suite runs between 23:00 and 24:00), so
 * callers that mean "the event" take its first block.
 */
const calendarEvent = (page: Page, name: string, state: string) => page.locator(`.schedule-event[title="${name}: ${state}"]`);

const schedulesOf = (api: Api, exhibitId: string) => api.get<Schedules>(`/exhibit-management/scheduling/${exhibitId}`);

test('an event two minutes ahead changes a setting and fires a control on time, turns grey, and one occurrence of a daily series is edited alone', async ({
  page,
  apiAs,
  devices,
}) => {
  test.setTimeout(6 * MINUTE);
  const admin = await apiAs();
  const place = await createPlace(admin, 'Schedules');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);
  const { timeZone } = await schedulesOf(admin, exhibit.id);

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(schedulingPath(place, exhibit.id));
  await expect(page.getByText(`Times in ${timeZone}`)).toBeVisible();
  await expect(page.getByText('No events scheduled yet.')).toBeVisible();

  // Create Event: about two minutes ahead (the form is to the minute), a setting and a control.
  const start = Math.floor((Date.now() + 2 * MINUTE + 30_000) / MINUTE) * MINUTE;
  await page.getByRole('button', { name: 'Create Event' }).click();
  const form = page.getByRole('dialog', { name: 'Create Event' });
  await form.getByLabel(/^Event name/).fill('Evening theme');
  await form.getByLabel(/^Start/).fill(wallClock(start, timeZone));
  await form.getByLabel(/^End/).fill(wallClock(start + 60 * MINUTE, timeZone));
  await form.getByRole('button', { name: 'Add change' }).click();
  await page.getByRole('menuitem', { name: 'Setting: Theme' }).click();
  await form.getByLabel('Theme value').fill('night');
  await form.getByRole('button', { name: 'Add change' }).click();
  await page.getByRole('menuitem', { name: 'Control: Restart show' }).click();
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(form).toBeHidden();
  await expect(calendarEvent(page, 'Evening theme', 'Scheduled').first()).toBeVisible();

  // While it waits: a daily series from tomorrow, one occurrence of which is renamed alone. Its
  // hour-long occurrences start three hours earlier than this time of day when they would
  // otherwise cross midnight in the zone (each would then be drawn as two blocks, one a day).
  const inADay = Date.now() + 24 * 60 * MINUTE;
  const tomorrow = Number(wallClock(inADay, timeZone).slice(11, 13)) >= 22 ? inADay - 3 * 60 * MINUTE : inADay;
  const series = await admin.post<{ schedules: Occurrence[] }>(`/exhibit-management/scheduling/${exhibit.id}`, {
    manifest: { settings: [{ settingId: 'theme', value: 'quiet' }] },
    eventName: 'School visits',
    startDate: new Date(tomorrow).toISOString(),
    endDate: new Date(tomorrow + 60 * MINUTE).toISOString(),
    recurring: true,
    selectedFrequency: { label: 'Daily', value: 'Daily', altValue: '1111111' },
    recurringEndDate: new Date(tomorrow + 4 * 24 * 60 * MINUTE).toISOString(),
  });
  expect(series.schedules).toHaveLength(5);
  await page.getByRole('button', { name: 'Month' }).click();
  const occurrences = page.locator('.fc-event', { hasText: 'School visits' });
  // Month view holds tomorrow, or the next month does (on the last day of one).
  const shown = await occurrences.first().waitFor({ timeout: 5000 }).then(() => true, () => false);
  if (!shown) await page.locator('.fc-next-button').click();
  await calendarEvent(page, 'School visits', 'Scheduled').first().click();
  const edit = page.getByRole('dialog', { name: 'Edit Event' });
  await edit.getByLabel(/^Event name/).fill('School visits (museum closed)');
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'This event' }).click();
  await expect(edit).toBeHidden();
  const afterEdit = (await schedulesOf(admin, exhibit.id)).schedules.filter((s) => s.recurringId === series.schedules[0]!.recurringId);
  expect(afterEdit.map((s) => s.name).sort()).toEqual(['School visits', 'School visits', 'School visits', 'School visits', 'School visits (museum closed)']);
  await expect(calendarEvent(page, 'School visits (museum closed)', 'Scheduled')).toHaveCount(1);

  // At its time the program gets the setting and the control, and the event turns grey.
  const waitMs = start - Date.now() + 30_000;
  await program.waitForLine(/^setting theme "night"$/, { timeoutMs: waitMs });
  await program.waitForLine(/^control restart$/, { timeoutMs: 30_000 });
  await page.getByRole('button', { name: 'Week' }).click();
  const today = page.getByRole('button', { name: 'Today' });
  if (await today.isEnabled()) await today.click();
  await expect(calendarEvent(page, 'Evening theme', 'Completed').first()).toBeVisible({ timeout: 15_000 });
  const ran = (await schedulesOf(admin, exhibit.id)).schedules.find((s) => s.name === 'Evening theme')!;
  expect(ran.state).toBe('completed');

  // The run is in the exhibit's log, and the event shows what it did.
  await calendarEvent(page, 'Evening theme', 'Completed').first().click();
  const summary = page.getByRole('dialog', { name: 'Event' });
  await expect(summary.getByText('Setting "theme": "night"')).toBeVisible();
  await expect(summary.getByText('Control "restart": delivered')).toBeVisible();
});
