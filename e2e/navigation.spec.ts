import { ADMIN, expect, test } from './fixtures.js';

const HELP_TOPICS = [
  'create_new_exhibit',
  'prepare_manifest',
  'connect_exhibit',
  'live_controls',
  'update_settings',
  'update_statuses',
  'create_new_hardware',
  'connect_hardware',
  'peripherals',
  'bug',
];

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
});

test('the forbidden page explains and leads home', async ({ page }) => {
  await page.goto('/forbidden');
  await expect(page.getByText('You do not have access to Plinth.')).toBeVisible();
  await expect(page.getByText('Please make sure you have received an invitation.')).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-forbidden.png', fullPage: true });
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the not-found page explains and leads home', async ({ page }) => {
  await page.goto('/notfound');
  await expect(page.getByText('Page not found or not accessible.')).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e-notfound.png', fullPage: true });
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('unknown signed-in routes fall back home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/^Good (Morning|Afternoon|Evening)/)).toBeVisible();
});

test('an unknown organization tab sends the user home', async ({ page, apiAs }) => {
  const admin = await apiAs();
  const org = await admin.post<{ id: string }>('/org-management/organization', { name: `Tabless ${Date.now()}` });
  await page.goto(`/organization/${org.id}/nonsense`);
  await expect(page).toHaveURL(/\/$/);
});

test('the ten help topics are reachable with next and previous', async ({ page }) => {
  await page.goto(`/help/${HELP_TOPICS[0]}`);
  const main = page.getByRole('main');
  // The left menu lists every topic.
  for (const topic of HELP_TOPICS) {
    await expect(page.locator(`a[href$="/help/${topic}"]`).first()).toBeAttached();
  }
  await page.screenshot({ path: '/tmp/e2e-help.png', fullPage: true });
  await expect(main.getByRole('link', { name: /previous/i })).toHaveCount(0);
  for (const topic of HELP_TOPICS.slice(1)) {
    await main.getByRole('link', { name: /next/i }).click();
    await expect(page).toHaveURL(new RegExp(`/help/${topic}$`));
  }
  await expect(main.getByRole('link', { name: /next/i })).toHaveCount(0);
  // The bug page directs reports to the configured support address.
  await expect(main.getByText('support@plinth.test').first()).toBeVisible();
  for (const topic of [...HELP_TOPICS].reverse().slice(1)) {
    await main.getByRole('link', { name: /previous/i }).click();
    await expect(page).toHaveURL(new RegExp(`/help/${topic}$`));
  }
});

test('the hardware help names the MQTT broker port the server announces', async ({ page, apiAs }) => {
  const config = await (await apiAs()).get<{ mqttPort: number }>('/config');
  await page.goto('/help/connect_hardware');
  await expect(page.getByRole('main').getByText(String(config.mqttPort), { exact: true }).first()).toBeVisible();
});
