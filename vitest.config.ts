import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Fault scenarios: a fleet under load through a broker, database or node failure. */
const FAULT_SCENARIOS = 'apps/server/src/faults/**/*.test.ts';

/** The server's tests, against real PostgreSQL (a migrated template database each file copies). */
const SERVER: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
};

/** One Vitest run, several projects: shared contracts, the Node SDK, the server against real PostgreSQL, the tooling, the console. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          // The Node SDK alone (its tests against the real server are in the server project).
          name: 'sdk',
          include: ['packages/sdk/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          ...SERVER,
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: [FAULT_SCENARIOS],
        },
      },
      {
        test: {
          // The fault scenarios (docs/reliability.md) time a recovery under a fleet's steady load:
          // they run after every other project, one file at a time, with the machine to themselves.
          ...SERVER,
          name: 'server-faults',
          include: [FAULT_SCENARIOS],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // Checks of the project's own tooling (the import walls of `npm run lint`).
          name: 'tooling',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
