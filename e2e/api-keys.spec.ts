import type { Page } from '@playwright/test';
import { createOrganization, createSite, expect, inviteUser, test, uniqueEmail, uniqueName, USER_PASSWORD } from './fixtures.js';

/** A REST call from the page with the key only (no session cookie): the status and the message. */
async function callWithKey(page: Page, key: string, path: string): Promise<{ status: number; message: string | null }> {
  return page.evaluate(
    async ({ key, path }) => {
      const res = await fetch(path, { credentials: 'omit', headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { message?: string };
      return { status: res.status, message: body.message ?? null };
    },
    { key, path },
  );
}

test('an organization manager creates an API key, automation calls with it, and revoking it refuses the next call', async ({
  page,
  context,
  plinth,
  apiAs,
  signIn,
}) => {
  const api = await apiAs();
  const org = await createOrganization(api, uniqueName('Planetarium'));
  const site = await createSite(api, org.id, uniqueName('Dome'));
  const manager = uniqueEmail('manager');
  await inviteUser(api, plinth.mail, { organizationId: org.id }, manager, 'manager');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: plinth.baseURL });

  await signIn(page, manager, USER_PASSWORD);
  await page.goto(`/organization/${org.id}/sites`);
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await expect(page.getByText('No API keys yet.', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
  await dialog.getByLabel('Name').fill('Show control');
  await dialog.getByRole('textbox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Developer' }).click();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toHaveCount(0);

  const shown = page.getByTestId('new-api-key');
  await expect(shown).toBeVisible();
  await expect(page.getByText('you will not see it again', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toBe(await shown.textContent());
  expect(key).toMatch(/^plk_/);

  const table = page.getByRole('table', { name: 'API keys' });
  const row = table.getByRole('row', { name: /Show control/ });
  await expect(row).toContainText('Whole organization');
  await expect(row).toContainText('Developer');
  await expect(row).toContainText(manager);
  const lastUsed = row.getByRole('cell').nth(4);
  await expect(lastUsed).toHaveText('-');

  // Automation calls with the key: it sees the organization's site.
  const listed = await callWithKey(page, key, `/api/v1/org-management/site/${site.id}`);
  expect(listed.status).toBe(200);
  // "Last used" shows once the list is read again.
  await page.reload();
  await expect(lastUsed).not.toHaveText('-');
  await expect(lastUsed).toHaveText(/\d{2}-\d{2}-\d{4}/);

  await page
    .getByRole('table', { name: 'API keys' })
    .getByRole('button', { name: 'Revoke API key Show control' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('Show control');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /Show control/ })).toContainText('Revoked');

  const refused = await callWithKey(page, key, `/api/v1/org-management/site/${site.id}`);
  expect(refused).toEqual({ status: 401, message: 'This API key has been revoked.' });
});
