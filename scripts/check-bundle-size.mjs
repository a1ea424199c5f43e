#!/usr/bin/env node
// The console's first-load budget (issue 17): the JavaScript a visitor downloads before the
// sign-in page and home appear — the entry script of apps/web/dist/index.html and the modules it
// preloads — must stay within BUDGET_KB gzipped. Every other screen loads its own code when it is
// opened (React.lazy in app/AppRoutes.tsx). Prints each chunk and fails past the budget.
// The heavy libraries (the rich-text editor, charts, calendar, date pickers) must not be in the
// first load nor in what a page's chunk imports statically: they load with the tab that shows them.
//   node scripts/check-bundle-size.mjs [dist folder]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** kB as the build reports them (1 kB = 1000 bytes), gzipped. */
export const BUDGET_KB = 300;

const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../apps/web/dist'));
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const preloaded = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
const files = [...new Set([...entry, ...preloaded])];
if (entry.length === 0) {
  console.error(`No entry script in ${path.join(dist, 'index.html')}: build the console first (npm run build).`);
  process.exit(1);
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const rows = files.map((href) => {
  const bytes = fs.readFileSync(path.join(dist, href.replace(/^\//, '')));
  return { href, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
});
const total = rows.reduce((n, r) => n + r.gzip, 0);
console.log(`First-load JavaScript of the console (${files.length} file${files.length === 1 ? '' : 's'}):`);
for (const r of rows.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${r.href.padEnd(56)} ${kb(r.raw).padStart(8)} kB  gzip ${kb(r.gzip).padStart(7)} kB`);
console.log(`  total gzipped ${kb(total)} kB of a ${BUDGET_KB} kB budget`);
if (total > BUDGET_KB * 1000) {
  console.error(`The first load is ${kb(total)} kB gzipped, over the ${BUDGET_KB} kB budget: load the new code lazily (React.lazy, import()).`);
  process.exit(1);
}

/** The heavy libraries, each known by a string its minified code keeps. */
const HEAVY = [
  { name: 'the rich-text editor (Tiptap)', marker: 'ProseMirror' },
  { name: 'the charts (Chart.js)', marker: '_chartjs' },
  { name: 'the calendar (FullCalendar)', marker: 'fc-daygrid' },
  { name: 'the date pickers (@mantine/dates)', marker: 'DecadeLevelGroup' },
];
/** Pages whose first view shows one: the audit log opens on its date filters. */
const PAGE_NEEDS = { AuditLogPage: ['the date pickers (@mantine/dates)'] };

const assets = path.join(dist, 'assets');
const read = (file) => fs.readFileSync(path.join(assets, file), 'utf8');
/** A chunk and every chunk it imports statically (loaded with it). */
function staticClosure(file) {
  const seen = new Set([file]);
  for (const current of seen) for (const m of read(current).matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) seen.add(m[1]);
  return [...seen];
}
const heavyIn = (files) => HEAVY.filter(({ marker }) => files.some((f) => read(f).includes(marker)));

const entryFiles = entry.map((href) => path.basename(href));
const pages = [...new Set(entryFiles.flatMap((f) => [...read(f).matchAll(/import\(`\.\/([^`]+\.js)`\)/g)].map((m) => m[1])))];
const problems = [];
for (const lib of heavyIn(entryFiles.flatMap(staticClosure))) problems.push(`the first load holds ${lib.name}`);
for (const page of pages) {
  const name = page.replace(/-[\w-]{8}\.js$/, '');
  for (const lib of heavyIn(staticClosure(page))) if (!(PAGE_NEEDS[name] ?? []).includes(lib.name)) problems.push(`${name} loads ${lib.name} with the page, before a tab shows it`);
}
console.log(`Heavy libraries checked in the first load and in ${pages.length} pages' chunks: ${problems.length === 0 ? 'each loads with its tab' : problems.length + ' misplaced'}`);
if (problems.length > 0) {
  for (const p of problems) console.error(`  ${p}`);
  console.error('Load them lazily (lazyPanel in apps/web/src/components/lazy-panel.tsx, React.lazy, import()).');
  process.exit(1);
}
