/**
 * The walls of the code base (docs/architecture.md, "The rules CI enforces"). `npm run lint` runs
 * this; a broken rule fails the build. There are no exceptions: fix the import, not this file.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles anywhere, type-only imports included: they make modules impossible to read or test alone.',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      comment: 'packages/* are the floor the apps stand on; they never reach up into an app.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-shared-ui-imports-no-feature',
      severity: 'error',
      comment: 'The console\'s components/ and lib/ are shared by every feature: they import no feature and nothing from app/.',
      from: { path: '^apps/web/src/(components|lib)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'web-feature-imports-no-other-feature',
      severity: 'error',
      comment: 'A console feature imports no other feature: what two features share lives in components/ or lib/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-feature-imports-no-app',
      severity: 'error',
      comment: 'app/ (providers, routes, layout) imports the features, never the other way round.',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'server-lib-imports-no-module-or-device',
      severity: 'error',
      comment: 'The server\'s lib/ is the floor: it imports no module and no device code.',
      from: { path: '^apps/server/src/lib/' },
      to: { path: '^apps/server/src/(modules|devices)/' },
    },
    {
      name: 'server-only-repositories-import-the-schema',
      severity: 'error',
      comment: 'Only repositories (and db/) touch the drizzle schema; services, gateways, presenters and routes go through them.',
      from: { path: '^apps/server/src/', pathNot: ['\\.repository\\.ts$', '^apps/server/src/db/', '\\.test\\.ts$'] },
      to: { path: '^apps/server/src/db/schema' },
    },
    {
      name: 'server-only-start-up-imports-compat',
      severity: 'error',
      comment: 'compat/ (Gumband compatibility) translates at the edge: only start-up (server.ts, cli.ts) reaches it; no module, device or lib code knows a foreign protocol.',
      from: { path: '^apps/server/src/', pathNot: ['^apps/server/src/compat/', '^apps/server/src/(server|cli)\\.ts$', '^apps/server/src/test/', '\\.test\\.ts$'] },
      to: { path: '^apps/server/src/compat/' },
    },
    {
      name: 'server-compat-reaches-devices-through-ports',
      severity: 'error',
      comment: 'compat/ talks to the gateways through devices/ports.ts (as services do), never through a gateway file: the same gateway, not a copy of it.',
      from: { path: '^apps/server/src/compat/' },
      to: { path: '^apps/server/src/devices/', pathNot: '^apps/server/src/devices/ports\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/', '^apps/server/drizzle/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.d.ts'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
