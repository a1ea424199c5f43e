import { createExhibitWithToken, createPlace, test } from './devices.js';
import { ADMIN, expect, signIn } from './fixtures.js';

/**
 * The Python SDK's example exhibit (packages/sdk-python/examples/controls_and_settings.py), run
 * as its own Python process: a person fires controls and saves a setting on the exhibit's page,
 * the program prints them, and the statuses it sets show in the console.
 */
test('a person drives the Python example exhibit from the console', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Python');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const exhibitPath = (tab: string) => `/organization/${place.organization.id}/site/${place.site.id}/exhibits/${exhibit.id}/${tab}`;
  const program = devices.pythonExample(exhibit);
  await program.waitForLine(/^ready in op mode Off$/);
  await signIn(page, ADMIN.email, ADMIN.password);

  // The statuses the program set when it started.
  await page.goto(exhibitPath('overview'));
  await expect(page.getByLabel('Exhibit online')).toBeVisible();
  const statuses = page.getByRole('region', { name: 'Status' });
  await expect(statuses.getByRole('row', { name: /Visitors today/ })).toContainText('0');
  await expect(statuses.getByRole('row', { name: /IP Address/ })).toContainText(/\d+\.\d+\.\d+\.\d+/);

  await page.goto(exhibitPath('controls'));
  await page.getByRole('button', { name: 'Reload' }).click();
  await program.waitForLine(/^control reload$/);
  await expect(page.getByRole('status')).toHaveText('Reload was sent to the exhibit.');
  await page.getByRole('group', { name: 'Volume' }).getByRole('button', { name: 'Up' }).click();
  await program.waitForLine(/^control volume up$/);

  await page.goto(exhibitPath('settings'));
  // The program received the default when it started, typed (a Python bool for the toggle).
  await program.waitForLine(/^setting kiosk_name = 'Lobby kiosk'$/);
  await program.waitForLine(/^setting attract_loop = True$/);
  const field = page.getByTestId('setting-kiosk_name');
  await expect(field.getByText('Applied', { exact: true })).toBeVisible();
  await field.getByRole('textbox', { name: 'Kiosk name' }).fill('Harbour kiosk');
  const before = program.lines.length;
  await page.getByRole('button', { name: 'Save' }).click();
  await program.waitForLine(/^setting kiosk_name = 'Harbour kiosk'$/, { from: before });
  await expect(field.getByText('Applied', { exact: true })).toBeVisible();
});
