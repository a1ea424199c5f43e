import type { Locator, Page } from '@playwright/test';
import { createExhibitWithToken, createHardwareWithToken, createPlace, test, type ExhibitManifest } from './devices.js';
import { ADMIN, expect, inviteUser, signIn, uniqueEmail, USER_PASSWORD } from './fixtures.js';

/** Console care (issue 21): failures, disruptive actions and refusals are told as such. */

const MANIFEST: ExhibitManifest = {
  statuses: [{ id: 'count', type: 'Integer', display: 'Visitors today', default: 0 }],
  controls: [{ id: 'reload', type: 'Single', display: 'Reload' }],
  settings: [{ id: 'kiosk_name', type: 'TextInput', display: 'Kiosk name', default: 'Lobby kiosk' }],
};

const MANIFEST_ROUTE = '**/api/v1/exhibit-management/exhibit/*/manifest';

/** Every manifest read answers 500 until `page.unroute(MANIFEST_ROUTE)`. */
async function failManifestReads(page: Page) {
  await page.route(MANIFEST_ROUTE, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ response: 'InternalServer', code: 'InternalServer', message: 'boom' }),
    }),
  );
}

test('a failed manifest read shows a failure with Retry on the overview, controls and settings tabs, never emptiness', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);
  await signIn(page, ADMIN.email, ADMIN.password);
  const exhibitPath = (tab: string) => `/organization/${place.organization.id}/site/${place.site.id}/exhibits/${exhibit.id}/${tab}`;

  const tabs = [
    { tab: 'overview', empty: 'This exhibit has no statuses.', data: () => page.getByRole('region', { name: 'Status' }).getByRole('row', { name: /Visitors today/ }) },
    { tab: 'controls', empty: 'This exhibit has no controls.', data: () => page.getByRole('button', { name: 'Reload' }) },
    { tab: 'settings', empty: 'There are no settings here.', data: () => page.getByRole('textbox', { name: 'Kiosk name' }) },
  ];
  for (const { tab, empty, data } of tabs) {
    await failManifestReads(page);
    await page.goto(exhibitPath(tab));
    // The console retries a 500 twice before it gives up; give it the room.
    await expect(page.getByRole('alert').filter({ hasText: `The ${tab} of this exhibit could not be loaded.` })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(empty)).toHaveCount(0);
    await expect(data()).toHaveCount(0);

    await page.unroute(MANIFEST_ROUTE);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(data()).toBeVisible();
    await expect(page.getByText(`The ${tab} of this exhibit could not be loaded.`)).toHaveCount(0);
  }
});

/** Clicks a Mantine switch on its label, as a person does (the input itself is covered). */
const flip = (control: Locator) => control.locator('xpath=ancestor::label[1]').click();

test('Reboot asks first: Cancel sends nothing, Reboot says it was sent and then what the board answered', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  const board = await devices.board(hardware);
  await board.waitForLine(/announced plinth_fw/, { timeoutMs: 30_000 });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/hardware/${hardware.id}/overview`);
  const debug = page.getByRole('switch', { name: 'Debug Mode' });
  await expect(debug).toBeEnabled({ timeout: 15_000 });
  await flip(debug);
  await page.getByRole('dialog', { name: 'Turn on debug mode' }).getByRole('button', { name: 'Yes' }).click();
  await board.waitForLine(/debug mode on$/);
  await page.getByRole('tab', { name: 'Peripherals' }).click();

  const reboot = page.getByRole('button', { name: 'Reboot' });
  await reboot.click();
  const question = page.getByRole('dialog', { name: `Reboot ${hardware.name}` });
  await expect(question).toContainText(`This restarts 1 board, ${hardware.name}`);
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  // The board obeys commands in order: once it has the Identify sent after the Cancel, a reboot would have come before it.
  const beforeIdentify = board.lines.length;
  await page.getByRole('button', { name: 'Identify' }).click();
  await board.waitForLine(/identify: blinking/, { from: beforeIdentify });
  expect(board.lines.filter((line) => /reboot requested/.test(line))).toEqual([]);

  await reboot.click();
  await question.getByRole('button', { name: 'Reboot' }).click();
  await expect(page.getByText(`Reboot was sent to ${hardware.name}.`)).toBeVisible();
  await board.waitForLine(/reboot requested/);
  await expect(page.getByText(`${hardware.name} answered: Reboot done.`)).toBeVisible();
});

test("a site setting the server refuses shows the server's reason under its field, and the field hints the required prefix", async ({ page, apiAs }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/settings`);
  const prefix = 'https://lookerstudio.google.com/embed/';
  const field = page.getByRole('textbox', { name: /External Report URL/ });
  // The hint is there before anything is typed (the prefix comes from GET /config).
  await expect(field).toHaveAccessibleDescription(`Must start with ${prefix}`);

  await field.fill('https://reports.elsewhere.example/r/1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(field).toHaveAccessibleDescription(new RegExp(`The site report URL must start with ${prefix.replace(/[.]/g, '\\.')}`));
  await expect(page.getByRole('alert')).toHaveText('There were errors in saving the settings.');

  // Editing the field takes the reason away (the server has not judged the new value yet).
  await field.fill(`${prefix}reporting/1`);
  await expect(page.getByText('The site report URL must start with')).toHaveCount(0);
  await expect(field).toHaveAccessibleDescription(`Must start with ${prefix}`);
});

test('a help topic that does not exist shows the not-found page', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/help/no_such_topic');
  await expect(page).toHaveURL(/\/notfound$/);
  await expect(page.getByText('Page not found or not accessible.')).toBeVisible();
});

/** An id no organization or site has. */
const MISSING_ID = '00000000-0000-4000-8000-00000000dead';

test('an organization or a site that does not exist shows the not-found page', async ({ page, apiAs }) => {
  const place = await createPlace(await apiAs(), 'Care');
  await signIn(page, ADMIN.email, ADMIN.password);

  await page.goto(`/organization/${MISSING_ID}/sites`);
  await expect(page).toHaveURL(/\/notfound$/);
  await expect(page.getByText('Page not found or not accessible.')).toBeVisible();

  await page.goto(`/organization/${place.organization.id}/site/${MISSING_ID}/exhibits`);
  await expect(page).toHaveURL(/\/notfound$/);
  await expect(page.getByText('Page not found or not accessible.')).toBeVisible();
});

test('an organization the user may see but not open (a site grant only) shows the forbidden page', async ({ page, apiAs, plinth }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const email = uniqueEmail('site-only');
  await inviteUser(admin, plinth.mail, { siteId: place.site.id }, email, 'viewer');
  await signIn(page, email, USER_PASSWORD);

  // The site itself opens.
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits`);
  await expect(page.getByRole('heading', { name: place.site.name, level: 2 })).toBeVisible();

  await page.goto(`/organization/${place.organization.id}/sites`);
  await expect(page).toHaveURL(/\/forbidden$/);
  await expect(page.getByText('You do not have access to Plinth.')).toBeVisible();
});

test("a site-only member: home's organization card says why it does not open, and a board's breadcrumb greys the organization", async ({ page, apiAs, plinth }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  const email = uniqueEmail('site-only');
  await inviteUser(admin, plinth.mail, { siteId: place.site.id }, email, 'viewer');
  await signIn(page, email, USER_PASSWORD);

  await page.getByRole('tab', { name: /Organizations/ }).click();
  const card = page.getByRole('tabpanel').locator('[data-clickable]').filter({ hasText: place.organization.name });
  await expect(card).toHaveAttribute('aria-disabled', 'true');
  await expect(card).toContainText('You have access to some of its sites or exhibits only.');

  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/hardware/${hardware.id}/overview`);
  await expect(page.getByRole('heading', { name: hardware.name, level: 2 })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: place.site.name })).toBeVisible();
  await expect(crumbs.getByText(place.organization.name)).toBeVisible();
  await expect(crumbs.getByRole('link', { name: place.organization.name })).toHaveCount(0);
});

test('Apply to followers asks first, naming the followers: Cancel sends nothing, Apply copies and says so', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const leader = await createExhibitWithToken(admin, place.site.id, `Leader ${Date.now()}`);
  const follower = await createExhibitWithToken(admin, place.site.id, `Follower ${Date.now()}`);
  await admin.put(`/exhibit-management/exhibit/${follower.id}`, { leaderId: leader.id });
  const program = devices.exhibit(leader, MANIFEST);
  await program.waitForLine(/^ready$/);
  const syncs: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/sync-followers')) syncs.push(request.method());
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits/${leader.id}/settings`);

  const apply = page.getByRole('button', { name: 'Apply to followers' });
  await apply.click();
  const question = page.getByRole('dialog', { name: 'Apply to followers' });
  await expect(question).toContainText(`Replace the settings of 1 follower exhibit (${follower.name}) with the current settings of ${leader.name}?`);
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await apply.click();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  expect(syncs).toEqual([]);

  await apply.click();
  await question.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The current settings have been applied to all follower exhibits.' })).toBeVisible();
  expect(syncs).toEqual(['POST']);
});

test('a role change says it was made, and a refused one says why', async ({ page, apiAs, plinth }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const email = uniqueEmail('role');
  await inviteUser(admin, plinth.mail, { organizationId: place.organization.id }, email, 'viewer');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/users`);

  const role = page.getByRole('textbox', { name: `Role of ${email}` });
  await role.click();
  await page.getByRole('option', { name: 'Developer' }).click();
  await expect(page.getByText(`${email} is now a Developer of this organization.`)).toBeVisible();
  await expect(role).toHaveValue('Developer');

  // Another manager removes the user meanwhile: this page still offers them, and the server refuses the change.
  const { permissions } = await admin.get<{ permissions: { id: string; email: string }[] }>('/org-management/permission/organization', {
    organizationId: place.organization.id,
  });
  const grant = permissions.find((p) => p.email === email);
  expect(grant).toBeDefined();
  await admin.delete(`/org-management/permission/organization/${grant!.id}`);
  await role.click();
  await page.getByRole('option', { name: 'Manager' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: `The role of ${email} was not changed` });
  await expect(refusal).toBeVisible();
  await expect(page.getByText(`${email} is now a Manager`)).toHaveCount(0);
});

test('an unsaved site setting asks before another tab: Cancel keeps the edit, Proceed discards it', async ({ page, apiAs }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/settings`);
  const field = page.getByRole('textbox', { name: /External Report URL/ });
  const edit = 'https://lookerstudio.google.com/embed/reporting/unsaved';
  await field.fill(edit);

  await page.getByRole('tab', { name: 'Users' }).click();
  const warning = page.getByRole('dialog', { name: 'Warning' });
  await expect(warning).toContainText('You have unsaved changes you will lose if you proceed.');
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await expect(warning).toBeHidden();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(field).toHaveValue(edit);

  await page.getByRole('tab', { name: 'Users' }).click();
  await warning.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await page.getByRole('tab', { name: 'Settings' }).click();
  // Nothing was saved: the field shows the stored (empty) value, and leaving again does not ask.
  await expect(field).toHaveValue('');
  await page.getByRole('tab', { name: 'Exhibits' }).click();
  await expect(page).toHaveURL(/\/exhibits$/);
  await expect(warning).toHaveCount(0);
});

test('an unsaved organization setting asks before a link or another tab, and before the page closes', async ({ page, apiAs }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/settings`);
  const field = page.getByRole('textbox', { name: /Support Contact/ });
  await field.fill('help@museum.example');
  const warning = page.getByRole('dialog', { name: 'Warning' });

  await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
  await expect(warning).toBeVisible();
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(field).toHaveValue('help@museum.example');

  const beforeUnload = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const prompt = await beforeUnload;
  expect(prompt.type()).toBe('beforeunload');
  await prompt.dismiss();
  await expect(page.getByRole('tab', { name: 'Sites' })).toBeVisible();

  await page.getByRole('tab', { name: 'Sites' }).click();
  await warning.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/sites$/);
});

test('the op mode of an offline exhibit is disabled with the reason, and enabled once the exhibit is online', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const exhibit = await createExhibitWithToken(admin, place.site.id);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits/${exhibit.id}/overview`);
  const opMode = page.getByRole('switch', { name: 'Operating mode' });
  await expect(opMode).toBeDisabled();
  await opMode.hover();
  await expect(page.getByRole('tooltip')).toHaveText('The exhibit is offline: the operating mode can be changed when it is online.');

  const program = devices.exhibit(exhibit, MANIFEST);
  await program.waitForLine(/^ready$/);
  await expect(opMode).toBeEnabled({ timeout: 15_000 });
});

test('a board that never connected reads - for its number of peripherals, and its count once it has announced', async ({ page, apiAs, devices }) => {
  const admin = await apiAs();
  const place = await createPlace(admin, 'Care');
  const hardware = await createHardwareWithToken(admin, place.site.id);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/hardware/${hardware.id}/overview`);
  const peripherals = page.getByTestId('field-Number of Peripherals');
  await expect(peripherals).toHaveText('-');

  const board = await devices.board(hardware);
  await board.waitForLine(/announced plinth_fw/, { timeoutMs: 30_000 });
  await expect(peripherals).toHaveText(/^[0-9]+$/, { timeout: 15_000 });
});

test.describe('on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("an exhibit's page comes first, the site's list opens from Site navigation, and the home search hint fits", async ({ page, apiAs }) => {
    const admin = await apiAs();
    const place = await createPlace(admin, 'Phone');
    const exhibits = [];
    // Enough exhibits that the list, stacked above the page, would fill the first screen.
    for (let i = 0; i < 14; i += 1) exhibits.push(await createExhibitWithToken(admin, place.site.id, `Phone exhibit ${String(i).padStart(2, '0')} ${Date.now()}`));
    const first = exhibits[0]!;
    const last = exhibits[exhibits.length - 1]!;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/organization/${place.organization.id}/site/${place.site.id}/exhibits/${last.id}/overview`);

    const heading = page.getByRole('heading', { name: last.name });
    await expect(heading).toBeVisible();
    const tabs = page.getByRole('tablist');
    for (const element of [heading, tabs]) {
      const box = await element.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThan(844);
    }
    const nav = page.getByRole('navigation', { name: place.site.name });
    await expect(nav).toBeHidden();

    await page.getByRole('button', { name: 'Site navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Site navigation' });
    await expect(drawer.getByRole('navigation', { name: place.site.name })).toBeVisible();
    await drawer.getByRole('link', { name: new RegExp(first.name) }).click();
    await expect(page).toHaveURL(new RegExp(`/exhibits/${first.id}/overview$`));
    await expect(page.getByRole('heading', { name: first.name })).toBeVisible();
    await expect(drawer).toBeHidden();

    await page.goto('/');
    const search = page.getByRole('textbox', { name: 'Search for an organization, site, exhibit, or hardware' });
    await expect(search).toBeVisible();
    const fit = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return { text: context.measureText(input.placeholder).width, room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
    });
    expect(fit.text).toBeLessThanOrEqual(fit.room);
  });
});
