// First-start benchmark: the built server on the embedded default (PGlite), started on an empty
// data directory, as `npm install && npm start` does at a new venue, then stopped and started
// again on the same directory. For each start: the time until /readyz answers, and the resident
// memory once it has settled with no collection forced. PostgreSQL's initdb grows PGlite's
// WebAssembly memory by about 600 MiB that never shrinks; the database is made in a process of its
// own so the server does not keep it (docs/performance.md, "The first start's memory").
//   npm run bench -- first-start --runs 2
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readFlags, wholeNumber } from './lib/options.js';
import { benchServerEnv, checkServerBuild, DIST_MAIN, freePort, ROOT, settledRss, stopServerProcess, stopOnInterrupt, waitForHttp } from './lib/plinth-server.js';

type Figure = { label: string; value: string; target?: string; ok?: boolean };
/** One start: seconds until /readyz answered, and resident memory once settled. */
type Start = { readyS: number; rss: number };

const log = (line: string) => console.log(`[first-start] ${line}`);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * How much more resident memory the first start may hold than a later start on the same
 * directory. A fresh server's RSS moves by tens of MiB between starts; initdb's memory, kept,
 * was 490–510 MiB.
 */
const FIRST_OVER_LATER_MIB = 100;

let running: ChildProcess | null = null;

/** Starts the built server on `dataDir` (PGlite, nothing external), waits for /readyz and its memory to settle, then stops it. */
async function startOnce(dataDir: string): Promise<Start> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const env = benchServerEnv({ port, mqttPort, dataDir, databaseUrl: '' });
  const started = performance.now();
  const child = spawn(process.execPath, [DIST_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  running = child;
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, child, 120_000);
    const readyS = (performance.now() - started) / 1000;
    const rss = await settledRss({ pid: child.pid! });
    return { readyS, rss };
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? `\n--- server stderr ---\n${stderr}` : ''}`);
  } finally {
    await stopServerProcess(child);
    running = null;
  }
}

async function main(): Promise<void> {
  const values = readFlags({ runs: { type: 'string' } });
  const runs = wholeNumber(values.runs, process.env.BENCH_RUNS, 2, 'runs');
  checkServerBuild('dist', log);
  stopOnInterrupt(log, async () => {
    if (running) await stopServerProcess(running);
  });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-first-start-'));
  const firsts: Start[] = [];
  const laters: Start[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
      const first = await startOnce(dataDir);
      log(`run ${run}: first start (empty data directory) ready in ${first.readyS.toFixed(1)} s, RSS ${mib(first.rss)}`);
      const later = await startOnce(dataDir);
      log(`run ${run}: later start (same directory) ready in ${later.readyS.toFixed(1)} s, RSS ${mib(later.rss)}`);
      firsts.push(first);
      laters.push(later);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const worst = Math.max(...firsts.map((first, i) => (first.rss - laters[i]!.rss) / 2 ** 20));
  const list = (starts: Start[], pick: (start: Start) => string) => starts.map(pick).join(', ');
  const figures: Figure[] = [
    { label: 'first start (empty data directory): ready in', value: list(firsts, (x) => `${x.readyS.toFixed(1)} s`) },
    { label: 'first start: RSS settled, no forced collection', value: list(firsts, (x) => mib(x.rss)) },
    { label: 'later start (same directory): ready in', value: list(laters, (x) => `${x.readyS.toFixed(1)} s`) },
    { label: 'later start: RSS settled, no forced collection', value: list(laters, (x) => mib(x.rss)) },
    { label: 'first start less a later start (RSS, worst run)', value: `${worst >= 0 ? '+' : ''}${worst.toFixed(1)} MiB`, target: `≤ ${FIRST_OVER_LATER_MIB} MiB`, ok: worst <= FIRST_OVER_LATER_MIB },
  ];
  for (const figure of figures) log(`${figure.label}: ${figure.value}${figure.target ? ` (target ${figure.target}: ${figure.ok ? 'met' : 'MISSED'})` : ''}`);
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'first-start', figures }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
