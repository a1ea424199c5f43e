#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ (files named *.bench.ts or *.bench.mjs), one
// after the other, and prints their figures. Never part of `npm test`. See docs/performance.md.
//
//   npm run bench                                   every benchmark, default sizes
//   npm run bench -- exhibits --exhibits 100        only bench/exhibits.bench.ts, with a flag
//
// A word that is the name of a benchmark picks it; every other argument (flags and their values)
// is passed to each benchmark run (a benchmark ignores flags it does not know). `.ts` files run with `node --import tsx`, `.mjs`
// with plain node, with the open-file limit raised to the hard limit. One failing benchmark does
// not stop the others; the exit code is 1 if any failed.
//
// A benchmark may write its figures as JSON to the file named by BENCH_RESULTS_FILE:
//   { "name": "...", "figures": [{ "label": "...", "value": "...", "target"?: "...", "ok"?: true }] }
// and they are repeated in the summary at the end.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const benchDir = path.join(root, 'bench');
const files = fs.existsSync(benchDir)
  ? fs
      .readdirSync(benchDir)
      .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
      .sort()
  : [];
const nameOf = (file) => file.replace(/\.bench\.(ts|mjs)$/, '');
const names = new Set(files.map(nameOf));
const args = process.argv.slice(2);
const wanted = args.filter((a) => names.has(a));
const flags = args.filter((a) => !names.has(a));
const selected = files.filter((f) => wanted.length === 0 || wanted.includes(nameOf(f)));
if (selected.length === 0) {
  console.error(`No benchmark to run${wanted.length ? ` named ${wanted.join(', ')}` : ''}. Found: ${files.map(nameOf).join(', ') || 'none'}.`);
  process.exit(1);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-results-'));
const results = [];
for (const file of selected) {
  const name = nameOf(file);
  const resultsFile = path.join(scratch, `${name}.json`);
  const nodeArgs = file.endsWith('.ts') ? ['--import', 'tsx', path.join('bench', file)] : [path.join('bench', file)];
  console.log(`\n=== bench ${name}: node ${nodeArgs.join(' ')} ${flags.join(' ')}`.trimEnd());
  const started = Date.now();
  // Thousands of sockets need thousands of descriptors: raise the soft limit as far as allowed.
  const res = spawnSync('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, ...nodeArgs, ...flags], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS_FILE: resultsFile },
  });
  const ok = res.status === 0;
  const seconds = (Date.now() - started) / 1000;
  let figures = [];
  try {
    figures = JSON.parse(fs.readFileSync(resultsFile, 'utf8')).figures ?? [];
  } catch {
    // the benchmark wrote no figures (or failed before it could)
  }
  console.log(`=== bench ${name}: ${ok ? 'done' : `failed (exit ${res.status ?? res.signal})`} in ${seconds.toFixed(0)} s`);
  results.push({ name, ok, seconds, figures });
}
fs.rmSync(scratch, { recursive: true, force: true });

console.log('\nBenchmark summary');
for (const r of results) {
  console.log(`  ${r.name}: ${r.ok ? 'done' : 'FAILED'} (${r.seconds.toFixed(0)} s)`);
  const width = Math.max(0, ...r.figures.map((f) => String(f.label).length));
  for (const f of r.figures) {
    const target = f.target ? ` (target ${f.target})` : '';
    const verdict = f.ok === undefined ? '' : f.ok ? `  ok${target}` : `  MISSED${target}`;
    console.log(`    ${String(f.label).padEnd(width)}  ${f.value}${verdict}`);
  }
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
