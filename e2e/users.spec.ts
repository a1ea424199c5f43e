import {
  ADMIN,
  USER_PASSWORD,
  createOrganization,
  createSite,
  expect,
  inviteUser,
  linkIn,
  test,
  uniqueEmail,
  uniqueName,
} from './fixtures.js';

test('an admin adds a user by email; the user creates the account from the mail and sees only what the role allows', async ({
  browser,
  page,
  plinth,
  apiAs,
  signIn,
}) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Invite Museum'));
  const site = await createSite(api, org.id, uniqueName('Invite Wing'));
  const other = await createOrganization(api, uniqueName('Someone Else'));
  const email = uniqueEmail('invitee');

  // The admin adds the user on the organization's Users tab.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/organization/${org.id}/users`);
  await expect(page.getByText('There are no users in this organization.')).toBeVisible();
  await page.getByRole('button', { name: 'Add Users' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').first().fill(email.toUpperCase());
  await dialog.getByRole('button', { name: /add/i }).click();
  await expect(dialog).toHaveCount(0);
  // Emails are lowercased before sending.
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-org-users.png', fullPage: true });

  // The invitation arrives with a create-account link.
  const invitation = await plinth.mail.waitFor(email, (m) => /invited/i.test(m.subject));
  expect(invitation.subject).toContain(org.name);
  const link = linkIn(invitation);
  expect(link.pathname).toBe('/create-account');

  // The new user, in a browser of their own, creates the account through the link.
  const context = await browser.newContext({ baseURL: plinth.baseURL, timezoneId: 'UTC' });
  const userPage = await context.newPage();
  await userPage.goto(link.pathname + link.search);
  const create = userPage.getByRole('button', { name: 'Create Password' });
  await expect(create).toBeVisible();
  await userPage.getByLabel('First name').fill('Ines');
  await userPage.getByLabel('Last name').fill('Invitee');
  const password = userPage.getByLabel('Password', { exact: true });
  await password.fill('weak pass');
  await expect(userPage.getByText('Password should not contain spaces')).toBeVisible();
  await expect(userPage.getByText('Password should contain at least one numeric digit')).toBeVisible();
  await expect(create).toBeDisabled();
  await password.fill(USER_PASSWORD);
  await expect(create).toBeEnabled();
  await userPage.screenshot({ path: '/tmp/e2e-create-account.png', fullPage: true });
  await create.click();
  await expect(userPage).toHaveURL(/\/login$/);

  // Signed in, the user (a viewer of the organization by default) sees it, not the other one.
  await signIn(userPage, email, USER_PASSWORD);
  const search = userPage.getByPlaceholder('Search for an organization, site, exhibit, or hardware');
  await search.fill(org.name);
  await userPage.getByRole('tab', { name: 'Organizations' }).click();
  await expect(userPage.getByRole('tabpanel').getByText(org.name, { exact: true }).first()).toBeVisible();
  await search.fill(other.name);
  await expect(userPage.getByRole('tabpanel').getByText('No organizations match the search criteria.')).toBeVisible();
  await expect(userPage.getByText(other.name, { exact: true })).toHaveCount(0);
  // No Create Organization for people who are not platform admins.
  await expect(userPage.getByRole('button', { name: 'Create Organization' })).toHaveCount(0);

  await userPage.goto(`/organization/${org.id}/sites`);
  await expect(userPage.getByRole('heading', { name: org.name })).toBeVisible();
  await expect(userPage.getByText(site.name, { exact: true }).first()).toBeVisible();
  await expect(userPage.getByRole('button', { name: 'Create Site' })).toHaveCount(0);
  await expect(userPage.getByRole('button', { name: /^(edit|rename)/i })).toHaveCount(0);
  await expect(userPage.getByRole('button', { name: /^delete/i })).toHaveCount(0);
  await userPage.getByRole('tab', { name: 'Users' }).click();
  await expect(userPage.getByText(email, { exact: true })).toBeVisible();
  await expect(userPage.getByRole('button', { name: 'Add Users' })).toHaveCount(0);
  await userPage.screenshot({ path: '/tmp/e2e-viewer-users.png', fullPage: true });

  // The other organization does not exist for this user: the console says it is not found.
  await userPage.goto(`/organization/${other.id}/sites`);
  await expect(userPage).toHaveURL(/\/notfound$/);
  await context.close();
});

test('a site viewer does not see Create Exhibit; a site developer does', async ({ browser, page, plinth, apiAs, signIn }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Role Museum'));
  const site = await createSite(api, org.id, uniqueName('Role Wing'));
  const viewer = uniqueEmail('viewer');
  const developer = uniqueEmail('developer');
  await inviteUser(api, plinth.mail, { siteId: site.id }, viewer, 'viewer');
  await inviteUser(api, plinth.mail, { siteId: site.id }, developer, 'developer');
  const sitePath = `/organization/${org.id}/site/${site.id}/exhibits`;

  await signIn(page, viewer, USER_PASSWORD);
  await page.goto(sitePath);
  await expect(page.getByRole('heading', { name: site.name })).toBeVisible();
  await expect(page.getByText('No exhibits available yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Exhibit' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Hardware' }).click();
  await expect(page.getByText('No hardware available yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Hardware' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByText('Site users')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Users' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/e2e-site-viewer.png', fullPage: true });

  const context = await browser.newContext({ baseURL: plinth.baseURL });
  const devPage = await context.newPage();
  await signIn(devPage, developer, USER_PASSWORD);
  await devPage.goto(sitePath);
  await expect(devPage.getByRole('button', { name: 'Create Exhibit' })).toBeVisible();
  await devPage.getByRole('tab', { name: 'Hardware' }).click();
  await expect(devPage.getByRole('button', { name: 'Create Hardware' })).toBeVisible();
  // Only managers add users.
  await devPage.getByRole('tab', { name: 'Users' }).click();
  await expect(devPage.getByText('Site users')).toBeVisible();
  await expect(devPage.getByRole('button', { name: 'Add Users' })).toHaveCount(0);
  await context.close();
});

test('an organization manager adds an existing user to a site with the default viewer role', async ({ page, plinth, apiAs, signIn }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Managed Museum'));
  const site = await createSite(api, org.id, uniqueName('Managed Wing'));
  const manager = uniqueEmail('manager');
  const colleague = uniqueEmail('colleague');
  await inviteUser(api, plinth.mail, { organizationId: org.id }, manager, 'manager');
  await inviteUser(api, plinth.mail, { organizationId: org.id }, colleague, 'viewer');

  await signIn(page, manager, USER_PASSWORD);
  await page.goto(`/organization/${org.id}/site/${site.id}/users`);
  await expect(page.getByText('There are no site users.')).toBeVisible();
  await page.getByRole('button', { name: 'Add Users' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').first().fill(colleague);
  await dialog.getByRole('button', { name: /add/i }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(colleague, { exact: true })).toBeVisible();
  const permissions = await api.get<{ permissions: { email: string; role: string }[] }>(`/org-management/permission/site/${site.id}`);
  expect(permissions.permissions.find((p) => p.email === colleague)?.role).toBe('viewer');
});
