import fs from 'node:fs';
import { createOrganization, createSite, expect, inviteUser, test, uniqueEmail, uniqueName, USER_PASSWORD } from './fixtures.js';

test('a manager changes a setting, finds it in the audit log with who, what and before → after, filters it and downloads the CSV', async ({
  page,
  plinth,
  apiAs,
  signIn,
}) => {
  const admin = await apiAs();
  const organization = await createOrganization(admin, uniqueName('Audit Museum'));
  const site = await createSite(admin, organization.id, uniqueName('East Wing'));
  await admin.put(`/org-management/site/setting/${site.id}/site_location`, { value: 'Basement' });
  const exhibit = await admin.post<{ id: string; name: string }>('/exhibit-management/exhibit', { name: uniqueName('Wave Tank'), siteId: site.id });
  const manager = uniqueEmail('auditor');
  await inviteUser(admin, plinth.mail, { organizationId: organization.id }, manager, 'manager');

  await signIn(page, manager, USER_PASSWORD);
  await page.goto(`/organization/${organization.id}/settings`);
  const field = page.getByRole('textbox', { name: /Support Contact/ });
  await field.fill('front-desk@museum.test');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

  // Organization settings lead to the audit log.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${organization.id}/audit-log$`));
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const rows = page.getByTestId('audit-entry');
  // The admin's organization, site, site setting, exhibit and the manager's invitation, then the manager's setting change.
  await expect(rows).toHaveCount(6);
  const change = rows.filter({ hasText: 'support_contact' });
  await expect(change).toContainText(manager);
  await expect(change).toContainText('organizationSetting');
  await expect(change).toContainText('Changed');
  await expect(change.getByLabel('Before')).toHaveText('{"value":""}');
  await expect(change.getByLabel('After')).toHaveText('{"value":"front-desk@museum.test"}');

  // Filter by person, then by action and site.
  await page.getByRole('textbox', { name: 'Person' }).fill('admin@');
  await page.getByRole('textbox', { name: 'Person' }).press('Enter');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: 'support_contact' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(6);
  await page.getByRole('textbox', { name: 'Site' }).click();
  await page.getByRole('option', { name: site.name }).click();
  await expect(page).toHaveURL(new RegExp(`siteId=${site.id}`));
  await expect(rows).toHaveCount(3);
  await page.getByRole('textbox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Changed' }).click();
  await expect(page).toHaveURL(/action=update/);
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: '/tmp/e2e-audit-log.png', fullPage: true });
  await expect(rows).toContainText('site_location');
  await expect(rows.getByLabel('After')).toHaveText('{"value":"Basement"}');

  // The CSV has the same filters.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^audit-log-${organization.id}-\\d{8}-\\d{6}\\.csv$`));
  const csv = fs.readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toMatch(/^sequence,at,actor_kind,actor_id,actor,address,/);
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain('site_location');
  expect(csv[1]).toContain(ADMIN_EMAIL);

  // The exhibit page links to the exhibit's own entries.
  await page.goto(`/organization/${organization.id}/site/${site.id}/exhibits/${exhibit.id}/overview`);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(new RegExp(`/audit-log\\?exhibitId=${exhibit.id}$`));
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Created');
  await expect(rows.getByLabel('After')).toContainText(exhibit.name);
});

const ADMIN_EMAIL = 'admin@plinth.test';
