import type { Page } from '@playwright/test';
import { createExhibitWithToken, createPlace, test, type Devices, type ExhibitManifest } from './devices.js';
import { ADMIN, expect, signIn, type Api } from './fixtures.js';

/** What the exhibit program declares: a status, a single and a group control, a text setting. */
const MANIFEST: ExhibitManifest = {
  statuses: [{ id: 'count', type: 'Integer', display: 'Visitors today', default: 0 }],
  controls: [
    { id: 'reload', type: 'Single', display: 'Reload' },
    {
      id: 'volume',
      type: 'Group',
      display: 'Volume',
      items: [
        { id: 'up', display: 'Up' },
        { id: 'down', display: 'Down' },
      ],
    },
  ],
  settings: [
    {
      id: 'kiosk_name',
      type: 'TextInput',
      display: 'Kiosk name',
      default: 'Lobby kiosk',
    },
  ],
};

type Ids = { organization: { id: string }; site: { id: string } };
const exhibitPath = ({ organization, site }: Ids, exhibitId: string, tab = 'overview') =>
  `/organization/${organization.id}/site/${site.id}/exhibits/${exhibitId}/${tab}`;

/** The exhibit's card on the site screen. */
const exhibitCard = (page: Page, name: string) => page.getByTestId('exhibit-card').filter({ hasText: name });

test('an exhibit comes online live on the site and exhibit screens, and goes offline when its program stops', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Live');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  await signIn(page, ADMIN.email, ADMIN.password);

  // Both screens are open before the exhibit's program starts.
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits`);
  await expect(exhibitCard(page, exhibit.name).getByText('Offline', { exact: true })).toBeVisible();
  const detail = await page.context().newPage();
  await detail.goto(exhibitPath(place, exhibit.id));
  await expect(detail.getByLabel('Exhibit offline')).toBeVisible();
  await expect(detail.getByText('This exhibit has no statuses.')).toBeVisible();

  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);

  await expect(exhibitCard(page, exhibit.name).getByText('Online', { exact: true })).toBeVisible();
  await expect(detail.getByLabel('Exhibit online')).toBeVisible();
  // The manifest it posted shows up too, without a reload.
  await expect(detail.getByRole('region', { name: 'Status' }).getByRole('row', { name: /Visitors today/ })).toContainText('0');
  await detail.screenshot({
    path: '/tmp/e2e-exhibit-online.png',
    fullPage: true,
  });

  // Killed, as a crash would: no goodbye on the socket.
  await program.stop('SIGKILL');
  await expect(detail.getByLabel('Exhibit offline')).toBeVisible();
  await expect(exhibitCard(page, exhibit.name).getByText('Offline', { exact: true })).toBeVisible();
});

test.describe('with the exhibit program running', () => {
  /** Signs in, starts the exhibit's program and opens its screen on `tab` once it is online. */
  async function openRunningExhibit(page: Page, admin: Api, devices: Devices, tab: string) {
    const place = await createPlace(admin, 'Running');
    const exhibit = await createExhibitWithToken(admin, place.site.id);
    const program = devices.exhibit(exhibit, MANIFEST);
    await signIn(page, ADMIN.email, ADMIN.password);
    await program.waitForLine(/^ready$/);
    await page.goto(exhibitPath(place, exhibit.id, tab));
    await expect(page.getByLabel('Exhibit online')).toBeVisible();
    return { program, exhibit, place };
  }

  test('a control fired in the console reaches the exhibit program', async ({ page, apiAs, devices }) => {
    const { program } = await openRunningExhibit(page, await apiAs(), devices, 'controls');

    await page.getByRole('button', { name: 'Reload' }).click();
    await program.waitForLine(/^control reload$/);
    await expect(page.getByRole('status')).toHaveText('Reload was sent to the exhibit.');

    await page.getByRole('group', { name: 'Volume' }).getByRole('button', { name: 'Up' }).click();
    await program.waitForLine(/^control volume up$/);
    await expect(page.getByRole('status')).toHaveText('Up was sent to the exhibit.');
  });

  test('a saved setting reaches the exhibit program and shows as applied', async ({ page, apiAs, devices }) => {
    const { program, place, exhibit } = await openRunningExhibit(page, await apiAs(), devices, 'settings');
    // The program got the default when it started, and acknowledged it.
    await program.waitForLine(/^setting kiosk_name "Lobby kiosk"$/);
    const field = page.getByTestId('setting-kiosk_name');
    await expect(field.getByText('Applied', { exact: true })).toBeVisible();

    await field.getByRole('textbox', { name: 'Kiosk name' }).fill('Harbour kiosk');
    await expect(field.getByText('Modified', { exact: true })).toBeVisible();
    const before = program.lines.length;
    await page.getByRole('button', { name: 'Save' }).click();
    await program.waitForLine(/^setting kiosk_name "Harbour kiosk"$/, {
      from: before,
    });
    await expect(page.getByRole('status')).toHaveText('Settings saved.');
    await expect(field.getByText('Applied', { exact: true })).toBeVisible();
    await expect(field.getByRole('textbox', { name: 'Kiosk name' })).toHaveValue('Harbour kiosk');

    // The overview shows the saved value as well.
    await page.goto(exhibitPath(place, exhibit.id, 'overview'));
    await expect(page.getByRole('region', { name: 'Settings' }).getByRole('row', { name: /Kiosk name/ })).toContainText('Harbour kiosk');
  });

  test('a status set by the exhibit program appears on the overview without a reload', async ({ page, apiAs, devices }) => {
    const { program } = await openRunningExhibit(page, await apiAs(), devices, 'overview');
    const row = page.getByRole('region', { name: 'Status' }).getByRole('row', { name: /Visitors today/ });
    await expect(row).toContainText('0');

    program.send('status count 42');
    await program.waitForLine(/^status count sent$/);
    await expect(row).toContainText('42');
    program.send('status count 43');
    await expect(row).toContainText('43');
  });
});
