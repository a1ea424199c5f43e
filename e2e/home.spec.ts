import {
  USER_PASSWORD,
  createOrganization,
  createSite,
  createUserWithCli,
  expect,
  inviteUser,
  test,
  uniqueEmail,
  uniqueName,
} from './fixtures.js';

test.use({ timezoneId: 'UTC' });

test('the greeting follows the time of day', async ({ page, plinth, signIn }) => {
  const email = uniqueEmail('early');
  await createUserWithCli(plinth, email);
  await page.clock.setFixedTime(new Date('2026-03-02T09:30:00Z'));
  await signIn(page, email, USER_PASSWORD);
  await expect(page.getByText(/Good Morning/)).toBeVisible();

  await page.clock.setFixedTime(new Date('2026-03-02T12:00:00Z'));
  await page.reload();
  await expect(page.getByText(/Good Afternoon/)).toBeVisible();

  await page.clock.setFixedTime(new Date('2026-03-02T16:00:00Z'));
  await page.reload();
  await expect(page.getByText(/Good Evening/)).toBeVisible();
});

test('a new user with no access is welcomed and told to get an invitation', async ({ page, plinth, signIn }) => {
  const email = uniqueEmail('newcomer');
  await createUserWithCli(plinth, email);
  await signIn(page, email, USER_PASSWORD);
  await expect(page.getByText('You seem to be new here!')).toBeVisible();
  await expect(page.getByText('Please make sure to receive an invitation to access more information.')).toBeVisible();
  // Only platform admins may create organizations.
  await expect(page.getByText('Create an organization to get started.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create Organization' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/e2e-home-new.png', fullPage: true });
});

test('home lists what the user may see, by category, and the search narrows it', async ({ page, plinth, apiAs, signIn }) => {
  const admin = await apiAs();
  const orgName = uniqueName('Harbour Museum');
  const org = await createOrganization(admin, orgName);
  const siteA = await createSite(admin, org.id, uniqueName('North Wing'));
  const siteB = await createSite(admin, org.id, uniqueName('South Wing'));
  const hidden = await createOrganization(admin, uniqueName('Hidden Gallery'));
  const email = uniqueEmail('curator');
  await inviteUser(admin, plinth.mail, { organizationId: org.id }, email, 'viewer');

  await signIn(page, email, USER_PASSWORD);
  const search = page.getByPlaceholder('Search for an organization, site, exhibit, or hardware');
  await expect(search).toBeVisible();
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await expect(page.getByText(orgName, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(hidden.name)).toHaveCount(0);
  await page.getByRole('tab', { name: 'Sites' }).click();
  await expect(page.getByText(siteA.name, { exact: true })).toBeVisible();
  await expect(page.getByText(siteB.name, { exact: true })).toBeVisible();
  // No exhibits or hardware yet: those tabs are not shown.
  await expect(page.getByRole('tab', { name: 'Exhibits' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Hardware' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/e2e-home-lists.png', fullPage: true });

  // Case-insensitive search on names; while searching every category shows.
  await search.fill(siteA.name.toUpperCase());
  await page.getByRole('tab', { name: 'Sites' }).click();
  await expect(page.getByText(siteA.name, { exact: true })).toBeVisible();
  await expect(page.getByText(siteB.name, { exact: true })).toHaveCount(0);
  // Escape clears the search.
  await search.press('Escape');
  await expect(search).toHaveValue('');
  await expect(page.getByText(siteB.name, { exact: true })).toBeVisible();

  // A site card opens the site's exhibits tab.
  await page.getByText(siteB.name, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${org.id}/site/${siteB.id}/exhibits$`));
});
