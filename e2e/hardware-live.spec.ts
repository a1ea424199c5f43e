import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createExhibitWithToken, createHardwareWithToken, createPlace, test } from './devices.js';
import { ADMIN, expect, signIn } from './fixtures.js';

type Ids = { organization: { id: string }; site: { id: string } };
const hardwarePath = ({ organization, site }: Ids, hardwareId: string, tab = 'overview') =>
  `/organization/${organization.id}/site/${site.id}/hardware/${hardwareId}/${tab}`;

/** The online badge beside the hardware's name in the screen's header. */
const headerBadge = (page: Page, name: string, state: 'Online' | 'Offline') =>
  page.getByRole('heading', { name, level: 2 }).locator('..').getByText(state, { exact: true });

/** Clicks a Mantine switch where a person does: on its label, which holds the track (the input itself is covered). */
const flip = (control: Locator) => control.locator('xpath=ancestor::label[1]').click();

test('a board comes online live, and with debug mode on the console drives its relay', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Boards');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  await signIn(page, ADMIN.email, ADMIN.password);

  // The screen is open before the board connects.
  await page.goto(hardwarePath(place, hardware.id));
  await expect(headerBadge(page, hardware.name, 'Offline')).toBeVisible();
  const debug = page.getByRole('switch', { name: 'Debug Mode' });
  await expect(debug).toBeDisabled();

  const board = await devices.board(hardware);
  await board.waitForLine(/announced plinth_fw 46/, { timeoutMs: 30_000 });
  await expect(headerBadge(page, hardware.name, 'Online')).toBeVisible({ timeout: 15_000 });
  // What it announced shows without a reload.
  await expect(page.getByTestId('field-Plinth Firmware Version')).toHaveText('46');
  await expect(page.getByTestId('field-Number of Peripherals')).toHaveText('12');

  await expect(debug).toBeEnabled();
  await flip(debug);
  await page.getByRole('dialog', { name: 'Turn on debug mode' }).getByRole('button', { name: 'Yes' }).click();
  await board.waitForLine(/debug mode on$/);
  await expect(debug).toBeChecked();

  await page.getByRole('tab', { name: 'Peripherals' }).click();
  const relay = page.getByRole('switch', { name: 'Relay state' });
  await expect(relay).not.toBeChecked();
  await expect(relay).toBeEnabled();
  const before = board.lines.length;
  await flip(relay);
  await board.waitForLine(/prop relay1\.state = 1$/, { from: before });
  await expect(relay).toBeChecked();
  // The value the board reported back is what the server now holds.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Relay state' })).toBeChecked();
  await page.screenshot({
    path: '/tmp/e2e-hardware-peripherals.png',
    fullPage: true,
  });

  const off = board.lines.length;
  await flip(page.getByRole('switch', { name: 'Relay state' }));
  await board.waitForLine(/prop relay1\.state = 0$/, { from: off });
  await expect(page.getByRole('switch', { name: 'Relay state' })).not.toBeChecked();
});

test('a button pressed on the board blinks in the peripherals tab', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Buttons');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(hardwarePath(place, hardware.id, 'peripherals'));
  await expect(headerBadge(page, hardware.name, 'Offline')).toBeVisible();

  const board = await devices.board(hardware, { pressEveryMs: 2500 });
  // The simulator's start takes longer on a busy machine: wait for its announcement, then for the page.
  await board.waitForLine(/announced plinth_fw/, { timeoutMs: 30_000 });
  await expect(headerBadge(page, hardware.name, 'Online')).toBeVisible({ timeout: 15_000 });
  const blinker = page.getByTestId('blinker-Button-state');
  await expect(blinker).toHaveAttribute('data-state', 'idle');
  const before = board.lines.length;
  await board.waitForLine(/prop button1\.state = 1$/, { from: before });
  await expect(blinker).toHaveAttribute('data-state', 'pressed');
  await expect(blinker).toHaveText('Pressed');
  // Each blink ends (1 s after the press, the board has released it).
  await expect(blinker).toHaveAttribute('data-state', 'idle');
});

test('uploaded Plinth firmware is pushed to the board, which reports the new version', async ({ page, apiAs, devices }, testInfo) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Firmware');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  const board = await devices.board(hardware);
  await board.waitForLine(/announced plinth_fw 46/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-e2e-fw-'));
  const file = path.join(dir, 'controller-47.gbm0');
  fs.writeFileSync(file, Buffer.from(`PLINTH-FIRMWARE 47.1 ${testInfo.testId}\n`.repeat(64)));

  try {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(hardwarePath(place, hardware.id, 'firmware'));
    await expect(headerBadge(page, hardware.name, 'Online')).toBeVisible();
    const panel = page.getByRole('region', { name: 'Plinth Firmware (.gbm0)' });
    await expect(panel.getByText('Current firmware not found in available firmware. Current firmware version: 46')).toBeVisible();

    await panel.getByRole('button', { name: 'Upload' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Plinth Firmware' });
    await upload.getByLabel('Name').fill('Controller');
    await upload.getByLabel('Version').fill('47.1');
    await upload.locator('input[type="file"]').setInputFiles(file);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload).toBeHidden();

    const row = panel.getByRole('table', { name: 'Available Plinth Firmware' }).getByRole('row', { name: /47\.1/ });
    await expect(row).toContainText('Controller');
    await row.click();
    const before = board.lines.length;
    await panel.getByRole('button', { name: 'Update' }).click();
    // It asks first, naming the firmware and the one board it goes to.
    const question = page.getByRole('dialog', { name: 'Update firmware' });
    await expect(question).toContainText(`Install Controller (version 47.1) on 1 board, ${hardware.name}?`);
    await question.getByRole('button', { name: 'Update' }).click();
    const started = page.getByRole('dialog', {
      name: 'Firmware update started',
    });
    await expect(started).toBeVisible();
    await started.getByRole('button', { name: 'OK' }).click();

    await board.waitForLine(/firmware applied 47\.1$/, {
      from: before,
      timeoutMs: 20_000,
    });
    await board.waitForLine(/announced plinth_fw 47\.1,/, { from: before });
    await expect(panel.getByText('Controller (version 47.1)')).toBeVisible();
    const history = panel.getByRole('table', { name: 'Plinth Firmware Change History' }).getByRole('row', { name: /47\.1/ });
    await expect(history).toContainText('Controller');
    await expect(history).toContainText('applied');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('field-Plinth Firmware Version')).toHaveText('47.1');
    await page.screenshot({
      path: '/tmp/e2e-hardware-overview-fw.png',
      fullPage: true,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a board connected to an exhibit shows on the exhibit's hardware tab", async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Connect');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const board = await devices.board(hardware);
  await board.waitForLine(/announced plinth_fw/);
  await signIn(page, ADMIN.email, ADMIN.password);

  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits/${exhibit.id}/hardware`);
  await expect(page.getByText('No hardware is connected to this exhibit.')).toBeVisible();

  await page.goto(hardwarePath(place, hardware.id));
  await expect(page.getByText('Not connected to an exhibit')).toBeVisible();
  await page.getByRole('button', { name: 'Connect to Exhibit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect to Exhibit' });
  await dialog.getByRole('radio', { name: exhibit.name }).check();
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();
  const link = page.getByRole('link', { name: exhibit.name });
  await expect(link).toBeVisible();

  await link.click();
  await page.getByRole('tab', { name: 'Hardware' }).click();
  await expect(page).toHaveURL(new RegExp(`/exhibits/${exhibit.id}/hardware$`));
  const card = page.getByTestId('connected-hardware').filter({ hasText: hardware.name });
  await expect(card).toBeVisible();
  await expect(card.getByText('Online', { exact: true })).toBeVisible();
  await card.getByRole('link', { name: hardware.name }).click();
  await expect(page).toHaveURL(new RegExp(`/hardware/${hardware.id}/overview$`));
});
