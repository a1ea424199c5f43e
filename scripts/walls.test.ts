import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

/**
 * The import walls of .dependency-cruiser.cjs (run by `npm run lint`) must each fail on the
 * import they forbid: a tree that breaks every rule once is cruised with the project's own rules,
 * and each rule must report exactly its breach (a rule with a typo in a path would pass anything).
 */
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  forbidden: { name: string }[];
  options: Record<string, unknown>;
};

/** path → source; each import breaks the rule named in its comment. */
const TREE: Record<string, string> = {
  // no-circular (type-only imports count)
  'apps/server/src/modules/a/a.service.ts': "import type { B } from '../b/b.service.js';\nexport type A = B;\n",
  'apps/server/src/modules/b/b.service.ts': "import type { A } from '../a/a.service.js';\nexport type B = { a?: A };\n",
  // packages-never-import-apps
  'packages/sdk/src/client.ts': "import { helper } from '../../../apps/server/src/lib/helper.js';\nexport const c = helper;\n",
  'apps/server/src/lib/helper.ts': 'export const helper = 1;\n',
  // server-lib-imports-no-module-or-device
  'apps/server/src/lib/uses-module.ts': "import { x } from '../modules/c/c.service.js';\nexport const y = x;\n",
  'apps/server/src/modules/c/c.service.ts': 'export const x = 1;\n',
  // server-only-repositories-import-the-schema (a repository may)
  'apps/server/src/modules/d/d.service.ts': "import { users } from '../../db/schema.js';\nexport const d = users;\n",
  'apps/server/src/modules/d/d.repository.ts': "import { users } from '../../db/schema.js';\nexport const r = users;\n",
  'apps/server/src/db/schema.ts': 'export const users = 1;\n',
  // web-shared-ui-imports-no-feature
  'apps/web/src/components/Card.tsx': "import { home } from '../features/home/home.js';\nexport const Card = home;\n",
  'apps/web/src/features/home/home.ts': "import { paths } from '../../lib/paths.js';\nexport const home = paths;\n",
  'apps/web/src/lib/paths.ts': 'export const paths = 1;\n',
  // web-feature-imports-no-other-feature
  'apps/web/src/features/site/site.ts': "import { home } from '../home/home.js';\nexport const site = home;\n",
  // web-feature-imports-no-app
  'apps/web/src/features/exhibit/exhibit.ts': "import { routes } from '../../app/routes.js';\nexport const exhibit = routes;\n",
  'apps/web/src/app/routes.ts': 'export const routes = 1;\n',
  // server-only-start-up-imports-compat (server.ts may)
  'apps/server/src/modules/e/e.service.ts': "import { g } from '../../compat/gumband/g.ts';\nexport const e = g;\n",
  'apps/server/src/server.ts': "import { g } from './compat/gumband/g.ts';\nexport const s = g;\n",
  // server-compat-reaches-devices-through-ports (ports.ts it may)
  'apps/server/src/compat/gumband/g.ts': "import { gw } from '../../devices/gateway.js';\nimport type { P } from '../../devices/ports.js';\nexport const g: P = gw;\n",
  'apps/server/src/devices/gateway.ts': 'export const gw = 1;\n',
  'apps/server/src/devices/ports.ts': 'export type P = number;\n',
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-walls-'));
  for (const [file, source] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), source);
  }
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const { tsConfig: _projectTsConfig, ...options } = config.options;
    const cruised = await cruise(['apps', 'packages'], { ...options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
    result = cruised.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const breaches = (rule: string) =>
  result.summary.violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`);

describe('the import walls', () => {
  it('checks every rule of the config in this test', () => {
    expect(config.forbidden.map((r) => r.name).sort()).toEqual([
      'no-circular',
      'packages-never-import-apps',
      'server-compat-reaches-devices-through-ports',
      'server-lib-imports-no-module-or-device',
      'server-only-repositories-import-the-schema',
      'server-only-start-up-imports-compat',
      'web-feature-imports-no-app',
      'web-feature-imports-no-other-feature',
      'web-shared-ui-imports-no-feature',
    ]);
  });

  it('refuses an import circle, type-only imports included', () => {
    expect(breaches('no-circular').length).toBeGreaterThan(0);
    expect(breaches('no-circular').every((b) => b.includes('/modules/a/') || b.includes('/modules/b/'))).toBe(true);
  });

  it('refuses a package importing an app', () => {
    expect(breaches('packages-never-import-apps')).toEqual(['packages/sdk/src/client.ts → apps/server/src/lib/helper.ts']);
  });

  it("refuses the server's lib/ importing a module", () => {
    expect(breaches('server-lib-imports-no-module-or-device')).toEqual(['apps/server/src/lib/uses-module.ts → apps/server/src/modules/c/c.service.ts']);
  });

  it('refuses the drizzle schema outside repositories and db/', () => {
    expect(breaches('server-only-repositories-import-the-schema')).toEqual(['apps/server/src/modules/d/d.service.ts → apps/server/src/db/schema.ts']);
  });

  it('refuses compat/ outside start-up, and compat/ reaching a gateway file instead of its ports', () => {
    expect(breaches('server-only-start-up-imports-compat')).toEqual(['apps/server/src/modules/e/e.service.ts → apps/server/src/compat/gumband/g.ts']);
    expect(breaches('server-compat-reaches-devices-through-ports')).toEqual(['apps/server/src/compat/gumband/g.ts → apps/server/src/devices/gateway.ts']);
  });

  it("refuses the console's shared UI importing a feature, a feature importing another, and a feature importing app/", () => {
    expect(breaches('web-shared-ui-imports-no-feature')).toEqual(['apps/web/src/components/Card.tsx → apps/web/src/features/home/home.ts']);
    expect(breaches('web-feature-imports-no-other-feature')).toEqual(['apps/web/src/features/site/site.ts → apps/web/src/features/home/home.ts']);
    expect(breaches('web-feature-imports-no-app')).toEqual(['apps/web/src/features/exhibit/exhibit.ts → apps/web/src/app/routes.ts']);
  });
});
