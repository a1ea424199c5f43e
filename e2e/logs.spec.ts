import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { createExhibitWithToken, createHardwareWithToken, createPlace, test, type Devices, type ExhibitManifest } from './devices.js';
import { ADMIN, expect, signIn, type Api } from './fixtures.js';

const MANIFEST: ExhibitManifest = { statuses: [{ id: 'count', type: 'Integer', display: 'Visitors today', default: 0 }] };

type Ids = { organization: { id: string }; site: { id: string } };
const exhibitPath = ({ organization, site }: Ids, exhibitId: string, tab: string) =>
  `/organization/${organization.id}/site/${site.id}/exhibits/${exhibitId}/${tab}`;
const hardwarePath = ({ organization, site }: Ids, hardwareId: string, tab: string) =>
  `/organization/${organization.id}/site/${site.id}/hardware/${hardwareId}/${tab}`;

const logRows = (page: Page): Locator => page.getByTestId('log-row');
const pagerText = (page: Page): Locator => page.getByTestId('log-pager-text');

/** Starts a real exhibit program (its own Node process with @plinth/sdk) and waits until it is connected. */
async function runningExhibit(admin: Api, devices: Devices) {
  const place = await createPlace(admin, 'Logs');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);
  return { place, exhibit, program };
}

/** Has the program log lines one by one, each acknowledged on its stdout. */
async function logLines(program: Awaited<ReturnType<typeof runningExhibit>>['program'], lines: string[]): Promise<void> {
  for (const line of lines) {
    const from = program.lines.length;
    program.send(`log info ${line}`);
    await program.waitForLine(/^log info sent$/, { from });
  }
}

test("live mode shows a line the exhibit logs without a reload, highlighted for a second", async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const { place, exhibit, program } = await runningExhibit(admin, devices);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'logs'));
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();

  await page.getByRole('button', { name: 'Live' }).click();
  await expect(page.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('log-range-text')).toHaveText('Displaying live logs.');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeHidden();
  // The lease is taken when live mode starts; give the nodes' lease view its refresh.
  await page.waitForTimeout(1500);

  program.send('log warn {"door":"opened","visitors":3}');
  const row = logRows(page).filter({ hasText: '"door"' });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-highlighted', 'true');
  await expect(row).toHaveAttribute('data-level', 'warn');
  await expect(row).not.toHaveAttribute('data-highlighted', 'true', { timeout: 5000 });
  // The JSON message reads as JSON, expandable, never as markup.
  await row.getByRole('button', { name: /Expand JSON message/ }).click();
  await expect(row.getByTestId('log-message-json')).toContainText('"visitors": 3');
});

test('the pager walks three pages, and Download CSV saves a file whose rows match the table', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const { place, exhibit, program } = await runningExhibit(admin, devices);
  const lines = Array.from({ length: 45 }, (_, i) => `pager line ${String(i + 1).padStart(2, '0')}`);
  await logLines(program, lines);
  await expect
    .poll(async () => {
      const page0 = await admin.get<{ numLogs: number }>('/logging/exhibit', {
        exhibitId: exhibit.id,
        start: String(Date.now() - 3_600_000),
        end: String(Date.now() + 60_000),
        levels: 'info',
      });
      return page0.numLogs;
    })
    .toBeGreaterThanOrEqual(45);

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'logs'));
  // Only the exhibit's own info lines and the server's info records: uncheck the others.
  for (const level of ['debug', 'warn', 'error']) await page.getByRole('checkbox', { name: level, exact: true }).uncheck();
  await expect(pagerText(page)).toHaveText(/^Displaying 1 - 20 of (\d+) results$/);
  const total = Number(/of (\d+) results/.exec((await pagerText(page).textContent()) ?? '')![1]);
  expect(total).toBeGreaterThanOrEqual(45);
  expect(total).toBeLessThanOrEqual(60);
  await expect(logRows(page)).toHaveCount(20);
  const firstPage = await logRows(page).getByTestId('log-message').allTextContents();
  // Newest first: the last line logged tops the first page.
  expect(firstPage[0]).toBe('pager line 45');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pagerText(page)).toHaveText(`Displaying 21 - 40 of ${total} results`);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pagerText(page)).toHaveText(`Displaying 41 - ${total} of ${total} results`);
  await expect(logRows(page)).toHaveCount(total - 40);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(pagerText(page)).toHaveText(`Displaying 21 - 40 of ${total} results`);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const file = await download.path();
  const csv = fs.readFileSync(file!, 'utf8').trim().split(/\r?\n/);
  expect(csv[0]).toBe('datetime,data,event_type');
  const data = csv.slice(1).map((row) => row.split(',')[1]);
  // Every row of the table's first page is a row of the file, and every line the exhibit logged is there once.
  for (const message of firstPage) expect(data).toContain(message);
  for (const line of lines) expect(data.filter((d) => d === line)).toHaveLength(1);
});

test('the reports chart shows the events the exhibit sent', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const { place, exhibit, program } = await runningExhibit(admin, devices);
  for (const value of ['A', 'A', 'B']) {
    const from = program.lines.length;
    program.send(`event visit "${value}"`);
    await program.waitForLine(/^event visit sent$/, { from });
  }
  await expect
    .poll(async () => {
      const { report } = await admin.get<{ report: { datasets: { data: number[] }[] } }>('/reporting/exhibit/report', {
        exhibitId: exhibit.id,
        start: String(Date.now() - 3_600_000),
        end: String(Date.now() + 60_000),
        interval: '3600',
      });
      return report.datasets.flatMap((d) => d.data).reduce((a, b) => a + b, 0);
    })
    .toBe(3);

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(exhibitPath(place, exhibit.id, 'reports'));
  await page.getByRole('button', { name: 'Fetch' }).click();
  // chart.js draws on a canvas (named for assistive technology; the table below holds its numbers).
  const chart = page.getByTestId('report-total-chart');
  await expect(chart).toBeVisible();
  expect(await chart.evaluate((element) => element.tagName)).toBe('CANVAS');
  const total = page.getByRole('table', { name: 'Total Events' });
  await expect(total.getByRole('row', { name: /visit/ })).toBeAttached();
  const totalCounts = (await total.getByRole('row', { name: /visit/ }).getByRole('cell').allTextContents()).slice(1).map(Number);
  expect(totalCounts.reduce((a, b) => a + b, 0)).toBe(3);
  const byValue = page.getByRole('table', { name: 'Events by Value' });
  const countsOf = async (value: string) =>
    (await byValue.getByRole('row', { name: new RegExp(`^${value}\\b`) }).getByRole('cell').allTextContents()).slice(1).map(Number).reduce((a, b) => a + b, 0);
  expect(await countsOf('A')).toBe(2);
  expect(await countsOf('B')).toBe(1);
  await page.screenshot({ path: '/tmp/e2e-exhibit-reports.png', fullPage: true });
});

test("the hardware logs show a reboot and the board's own log line", async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Board logs');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  const board = await devices.board(hardware);
  // A busy machine (a CI run beside other work) can take a while to start the simulator's process.
  await board.waitForLine(/announced plinth_fw/, { timeoutMs: 30_000 });
  await expect.poll(async () => (await admin.get<{ online: boolean }>(`/hardware-mgmt/hardware/${hardware.id}`)).online, { timeout: 15_000 }).toBe(true);
  const beforeReboot = board.lines.length;
  await admin.get(`/hardware-mgmt/hardware/${hardware.id}/reboot`);
  await board.waitForLine(/rebooting/, { from: beforeReboot });
  await board.waitForLine(/connected to/, { from: board.lines.length });

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(hardwarePath(place, hardware.id, 'logs'));
  // The board's own lines (it logs its boot and the reboot it was asked for) and the server's record.
  await expect(async () => {
    await page.getByRole('button', { name: 'Fetch' }).click();
    await expect(page.getByTestId('log-message').filter({ hasText: /^reboot requested$/ })).toHaveCount(1, { timeout: 1000 });
    await expect(page.getByTestId('log-message').filter({ hasText: /^booted \(plinth firmware/ }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('log-row').filter({ has: page.getByText('reboot', { exact: true }) }).first()).toBeVisible();
});
