import { defineConfig } from '@playwright/test';

/**
 * End-to-end runs: the built server (apps/server/dist, serving apps/web/dist) started per worker
 * by e2e/fixtures.ts against a fresh PostgreSQL database, driven in Debian's Chromium.
 * Build first (`npm run build`); `npm test` does.
 */
export default defineConfig({
  testDir: './e2e',
  // Not the default test-results/: scripts/test.mjs keeps the Vitest report there and Playwright empties its output folder.
  outputDir: './test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list'], ['json']],
  use: {
    // Bounded so that a missing screen fails in seconds, not at the 60 s test timeout.
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
