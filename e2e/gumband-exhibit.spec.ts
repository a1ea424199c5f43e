import { createExhibitWithToken, createPlace, test } from './devices.js';
import { ADMIN, expect, signIn } from './fixtures.js';

/**
 * The Gumband example exhibit (examples/gumband-exhibit), written against the published
 * @deeplocal/gumband-node-sdk and unchanged but for its endpoint options, as its own Node
 * process against Plinth's Gumband compatibility mode: it shows online on its Plinth page, and
 * a person fires its control and changes its setting there; the program prints them.
 */
test('a person drives a Gumband exhibit from the Plinth console', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Gumband');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const exhibitPath = (tab: string) => `/organization/${place.organization.id}/site/${place.site.id}/exhibits/${exhibit.id}/${tab}`;
  const program = devices.gumbandExample(exhibit);
  await program.waitForLine(/^\{"event":"ready"/);
  await signIn(page, ADMIN.email, ADMIN.password);

  await page.goto(exhibitPath('overview'));
  await expect(page.getByLabel('Exhibit online')).toBeVisible();
  const statuses = page.getByRole('region', { name: 'Status' });
  await expect(statuses.getByRole('row', { name: /IP Address/ })).toContainText('10.0.0.7');

  await page.goto(exhibitPath('controls'));
  await page.getByRole('button', { name: 'Reload' }).click();
  await program.waitForLine(/^\{"event":"control","payload":\{"id":"reload"/);
  await expect(page.getByRole('status')).toHaveText('Reload was sent to the exhibit.');

  await page.goto(exhibitPath('settings'));
  const field = page.getByTestId('setting-kiosk_name');
  await field.getByRole('textbox', { name: 'Kiosk Name' }).fill('Harbour kiosk');
  await page.getByRole('button', { name: 'Save' }).click();
  await program.waitForLine(/^\{"event":"setting","payload":\{"id":"kiosk_name","value":"Harbour kiosk"/);
  await expect(field.getByText('Applied', { exact: true })).toBeVisible();
});
