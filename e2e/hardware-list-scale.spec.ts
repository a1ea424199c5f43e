import pg from 'pg';
import { createPlace } from './devices.js';
import { ADMIN, expect, signIn, test } from './fixtures.js';

const BOARDS = 2000;

/** Hardware records straight into the server's database: 2,000 through the API would take most of the test. */
async function insertBoards(databaseUrl: string, siteId: string, names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('insert into hardware (site_id, name) select $1::uuid, n from unnest($2::text[]) as t(n)', [siteId, names]);
  } finally {
    await client.end();
  }
}

test('a site with 2,000 boards lists them all, draws only what is on screen, and finds one by search', async ({ page, apiAs, plinth }) => {
  const admin = await apiAs();
  const { organization, site } = await createPlace(admin, 'Venue');
  await insertBoards(
    plinth.databaseUrl,
    site.id,
    Array.from({ length: BOARDS }, (_, i) => `Board ${String(i + 1).padStart(4, '0')}`),
  );
  await signIn(page, ADMIN.email, ADMIN.password);

  await page.goto(`/organization/${organization.id}/site/${site.id}/hardware`);
  const grid = page.getByTestId('card-grid');
  await expect(grid).toHaveAttribute('data-count', String(BOARDS));
  const cards = page.getByTestId('hardware-card');
  await expect(cards.first()).toContainText('Board 0001');
  // Windowed: the page holds the rows near the viewport, not 2,000 cards.
  expect(await cards.count()).toBeLessThan(200);

  // Scrolled to the end, the last boards are drawn.
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect(cards.filter({ hasText: `Board ${BOARDS}` })).toBeVisible();
  await page.evaluate('window.scrollTo(0, 0)');

  await page.getByRole('textbox', { name: 'Search for hardware' }).fill('board 1234');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('Board 1234');

  await cards.getByRole('link', { name: 'Board 1234' }).click();
  await expect(page.getByRole('heading', { name: 'Board 1234', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/\/hardware\/[0-9a-f-]+\/overview$/);
  // The left menu (2,000 entries, windowed) opens scrolled to the board, which it marks.
  await expect(page.locator('nav [aria-current="page"]').filter({ hasText: 'Board 1234' })).toBeInViewport();
});
