import type { Page } from '@playwright/test';
import { ADMIN, createOrganization, createSite, expect, test, uniqueName } from './fixtures.js';

/** Fills the single name field of the open create/edit dialog and confirms with its button. */
async function fillNameDialog(page: Page, name: string, confirm: RegExp): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const field = dialog.getByRole('textbox').first();
  const button = dialog.getByRole('button', { name: confirm });
  await field.fill('');
  await expect(button).toBeDisabled();
  await field.fill(name);
  await button.click();
  await expect(dialog).toHaveCount(0);
}

/** Confirms the type-the-name delete dialog: Delete stays disabled until the exact name is typed. */
async function confirmTypeToDelete(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const button = dialog.getByRole('button', { name: 'Delete' });
  const field = dialog.getByRole('textbox');
  await field.fill(name.slice(0, -1));
  await expect(button).toBeDisabled();
  await field.fill(`${name} `);
  await expect(button).toBeDisabled();
  await field.fill(name);
  await expect(button).toBeEnabled();
  await button.click();
  await expect(dialog).toHaveCount(0);
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
});

test('an admin creates an organization, a site, an exhibit and a hardware unit', async ({ page }) => {
  const orgName = uniqueName('Science Centre');
  const siteName = uniqueName('Main Hall');
  const exhibitName = uniqueName('Wave Tank');
  const hardwareName = uniqueName('Pump Board');

  await page.getByRole('button', { name: 'Create Organization' }).click();
  await fillNameDialog(page, orgName, /create/i);
  // After creation the organization opens on its sites tab.
  await expect(page).toHaveURL(/\/organization\/[^/]+\/sites$/);
  const orgUrl = page.url();
  await expect(page.getByRole('heading', { name: orgName })).toBeVisible();
  await expect(page.getByText('No sites available yet.')).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-org-empty.png', fullPage: true });

  await page.getByRole('button', { name: 'Create Site' }).click();
  await fillNameDialog(page, siteName, /create/i);
  await expect(page.getByText(siteName, { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-org-sites.png', fullPage: true });
  await page.getByPlaceholder('Search for a site').fill('no such site');
  await expect(page.getByText('No sites match the search criteria.')).toBeVisible();
  await page.getByPlaceholder('Search for a site').fill(siteName.toLowerCase());
  // Clicking a site opens it on its exhibits tab.
  await page.getByRole('main').getByText(siteName, { exact: true }).first().click();
  await expect(page).toHaveURL(/\/organization\/[^/]+\/site\/[^/]+\/exhibits$/);
  const siteUrl = page.url();
  await expect(page.getByText('No exhibits available yet.')).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-site-empty.png', fullPage: true });

  await page.getByRole('button', { name: 'Create Exhibit' }).click();
  await fillNameDialog(page, exhibitName, /create/i);
  // After creation the exhibit opens on its overview tab.
  await expect(page).toHaveURL(/\/site\/[^/]+\/exhibits\/[^/]+\/overview$/);
  await page.goto(siteUrl);
  await expect(page.getByText(exhibitName, { exact: true }).first()).toBeVisible();
  await page.getByPlaceholder('Search for an exhibit').fill('zzz');
  await expect(page.getByText('No exhibits match the search criteria.')).toBeVisible();

  await page.getByRole('tab', { name: 'Hardware' }).click();
  await expect(page).toHaveURL(/\/hardware$/);
  await expect(page.getByText('No hardware available yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Create Hardware' }).click();
  await fillNameDialog(page, hardwareName, /create/i);
  // After creation the hardware opens on its auth tab.
  await expect(page).toHaveURL(/\/site\/[^/]+\/hardware\/[^/]+\/auth$/);
  await page.goto(siteUrl.replace(/exhibits$/, 'hardware'));
  await expect(page.getByText(hardwareName, { exact: true }).first()).toBeVisible();
  await page.getByPlaceholder('Search for hardware').fill('zzz');
  await expect(page.getByText('No hardware matches the search criteria.')).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-site-hardware.png', fullPage: true });

  // Everything shows on home.
  await page.goto('/');
  await page.getByPlaceholder('Search for an organization, site, exhibit, or hardware').fill(orgName);
  await page.getByRole('tab', { name: 'Exhibits' }).click();
  await expect(page.getByText(exhibitName, { exact: true }).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Hardware' }).click();
  await expect(page.getByText(hardwareName, { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-home-admin.png', fullPage: true });
  expect(orgUrl).toContain('/organization/');
});

test('a second organization with a taken name is refused', async ({ page, apiAs }) => {
  const taken = await createOrganization(await apiAs(), uniqueName('Taken Name'));
  await page.getByRole('button', { name: 'Create Organization' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').first().fill(taken.name);
  await dialog.getByRole('button', { name: /create/i }).click();
  await expect(dialog.getByText('Organization name already taken.')).toBeVisible();
});

test('an admin renames an organization and a site', async ({ page, apiAs }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Old Museum'));
  const site = await createSite(api, org.id, uniqueName('Old Wing'));
  const newOrgName = uniqueName('New Museum');
  const newSiteName = uniqueName('New Wing');

  await page.goto(`/organization/${org.id}/sites`);
  await expect(page.getByRole('heading', { name: org.name })).toBeVisible();
  await page.getByRole('button', { name: /^(edit|rename)/i }).click();
  const dialog = page.getByRole('dialog');
  // Save stays disabled while the name is unchanged.
  await expect(dialog.getByRole('textbox').first()).toHaveValue(org.name);
  await expect(dialog.getByRole('button', { name: /save/i })).toBeDisabled();
  await fillNameDialog(page, newOrgName, /save/i);
  await expect(page.getByRole('heading', { name: newOrgName })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: newOrgName })).toBeVisible();

  await page.goto(`/organization/${org.id}/site/${site.id}/exhibits`);
  await expect(page.getByRole('heading', { name: site.name })).toBeVisible();
  await page.getByRole('button', { name: /^(edit|rename)/i }).click();
  await fillNameDialog(page, newSiteName, /save/i);
  await expect(page.getByRole('heading', { name: newSiteName })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: newSiteName })).toBeVisible();
});

test('an admin deletes a site and an organization by typing their names', async ({ page, apiAs }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Closing Museum'));
  const site = await createSite(api, org.id, uniqueName('Closing Wing'));
  const keep = await createSite(api, org.id, uniqueName('Kept Wing'));

  await page.goto(`/organization/${org.id}/site/${site.id}/exhibits`);
  await page.getByRole('button', { name: /^delete/i }).click();
  await page.screenshot({ path: '/tmp/e2e-delete-dialog.png', fullPage: true });
  await confirmTypeToDelete(page, site.name);
  // After deleting a site the user is on the organization's sites tab.
  await expect(page).toHaveURL(new RegExp(`/organization/${org.id}/sites$`));
  await expect(page.getByText(keep.name, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(site.name, { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: /^delete/i }).click();
  await confirmTypeToDelete(page, org.name);
  // After deleting an organization the user is home, and it is gone.
  await expect(page).toHaveURL(/\/$/);
  await page.getByPlaceholder('Search for an organization, site, exhibit, or hardware').fill(org.name);
  await expect(page.getByText(org.name, { exact: true })).toHaveCount(0);
  const orgs = await api.get<{ organizations: { id: string }[] }>('/org-management/organization');
  expect(orgs.organizations.map((o) => o.id)).not.toContain(org.id);
});

test('an admin renames and deletes an exhibit', async ({ page, apiAs }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Exhibit Museum'));
  const site = await createSite(api, org.id, uniqueName('Exhibit Wing'));
  const exhibit = await api.post<{ id: string; name: string }>('/exhibit-management/exhibit', { name: uniqueName('Sand Table'), siteId: site.id });
  const newExhibitName = uniqueName('Sand Box');

  await page.goto(`/organization/${org.id}/site/${site.id}/exhibits/${exhibit.id}/overview`);
  await expect(page.getByRole('heading', { name: exhibit.name })).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-exhibit.png', fullPage: true });
  await page.getByRole('button', { name: 'Edit exhibit name' }).click();
  await fillNameDialog(page, newExhibitName, /save/i);
  await expect(page.getByRole('heading', { name: newExhibitName })).toBeVisible();
  await page.getByRole('button', { name: 'Delete exhibit' }).click();
  await confirmTypeToDelete(page, newExhibitName);
  // After deleting an exhibit the user is on the site's exhibits tab.
  await expect(page).toHaveURL(new RegExp(`/organization/${org.id}/site/${site.id}/exhibits$`));
  await expect(page.getByText('No exhibits available yet.')).toBeVisible();
});

test('an admin renames and deletes a hardware unit', async ({ page, apiAs }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Hardware Museum'));
  const site = await createSite(api, org.id, uniqueName('Hardware Wing'));
  const hardware = await api.post<{ id: string; name: string }>('/hardware-mgmt/hardware', { name: uniqueName('Relay Board'), siteId: site.id });
  const newHardwareName = uniqueName('Relay Card');

  await page.goto(`/organization/${org.id}/site/${site.id}/hardware/${hardware.id}/overview`);
  await expect(page.getByRole('heading', { name: hardware.name })).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-hardware.png', fullPage: true });
  await page.getByRole('button', { name: 'Edit hardware name' }).click();
  await fillNameDialog(page, newHardwareName, /save/i);
  await expect(page.getByRole('heading', { name: newHardwareName })).toBeVisible();
  await page.getByRole('button', { name: 'Delete hardware' }).click();
  await confirmTypeToDelete(page, newHardwareName);
  // After deleting hardware the user is on the site's hardware tab.
  await expect(page).toHaveURL(new RegExp(`/organization/${org.id}/site/${site.id}/hardware$`));
  await expect(page.getByText('No hardware available yet.')).toBeVisible();
});

test('a locked exhibit blocks deleting it and its site', async ({ page, apiAs }) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Locked Museum'));
  const site = await createSite(api, org.id, uniqueName('Locked Wing'));
  const exhibit = await api.post<{ id: string; name: string }>('/exhibit-management/exhibit', { name: uniqueName('Locked Table'), siteId: site.id });
  await api.put(`/exhibit-management/exhibit/${exhibit.id}`, { manifestLocked: true });

  await page.goto(`/organization/${org.id}/site/${site.id}/exhibits`);
  await page.getByRole('button', { name: 'Delete site' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('This site cannot be deleted because it contains locked exhibits.')).toBeVisible();
  await expect(dialog.getByText(exhibit.name)).toBeVisible();
  await expect(dialog.getByRole('textbox')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/e2e-locked.png', fullPage: true });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.goto(`/organization/${org.id}/site/${site.id}/exhibits/${exhibit.id}/overview`);
  await page.getByRole('button', { name: 'Delete exhibit' }).click();
  await expect(page.getByRole('dialog').getByText('This exhibit cannot be deleted because it is locked.')).toBeVisible();
  await page.keyboard.press('Escape');
  // Still there.
  await api.get(`/exhibit-management/exhibit/${exhibit.id}`);
  await api.get(`/org-management/site/${site.id}`);
});
