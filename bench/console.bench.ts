/// <reference lib="dom" />
// Console benchmark (issue 17): the built console served by the built server on PostgreSQL, at
// venue scale, measured in Debian's Chromium through Playwright with the browser's own measures
// (Performance API, a long-task PerformanceObserver, CDP Performance metrics). Run through
// `npm run bench` (see docs/performance.md) after `npm run build`:
//   npm run bench -- console
//   npm run bench -- console --boards 2000 --busy 10 --memory 60
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { startSimulatedBoard, type SimulatedBoard } from '@plinth/hardware-sim';
import { DEFAULT_HEARTBEAT_MS, SESSION_COOKIE } from '@plinth/shared';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { createBoardTokens, fleetTotals, startFleets, stopFleets, tellFleet } from './lib/board-fleets.js';
import { isFromSource, positiveNumber, readFlags, wholeNumber } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchServer } from './lib/plinth-server.js';
import { quantile } from './lib/stats.js';

const TARGETS = { interactiveMs: 1000, keystrokeMs: 50, longTaskMs: 100, busy: 0.5, lagMs: 250 };
const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const HOME_SEARCH = 'Search for an organization, site, exhibit, or hardware';
/** The board prop the benchmark drives: the simulator's Int32 peripheral, shown as a decimal number. */
const DRIVEN = { peripheralId: 'int1', propName: 'value', testId: 'value-Int32-value' };

type Options = {
  homeExhibits: number;
  sites: number;
  organizations: number;
  boards: number;
  siteExhibits: number;
  busyRate: number;
  busyS: number;
  memoryRate: number;
  memoryS: number;
  /** How long the site's hardware list is measured while every board heartbeats (s). */
  heartbeatS: number;
  /** Which measurements to make: home, lists, heartbeat, board, memory. */
  parts: Set<string>;
  /** Where to write a CPU profile of the board page while driven (.cpuprofile), if anywhere. */
  cpuProfile: string | null;
  fromSource: boolean;
};

type Figure = { label: string; value: string; target?: string; ok?: boolean };

function readOptions(): Options {
  const values = readFlags({
    'home-exhibits': { type: 'string' },
    sites: { type: 'string' },
    organizations: { type: 'string' },
    boards: { type: 'string' },
    'site-exhibits': { type: 'string' },
    rate: { type: 'string' },
    busy: { type: 'string' },
    'memory-rate': { type: 'string' },
    memory: { type: 'string' },
    'heartbeat-seconds': { type: 'string' },
    parts: { type: 'string' },
    'cpu-profile': { type: 'string' },
  });
  const env = process.env;
  return {
    homeExhibits: wholeNumber(values['home-exhibits'], env.BENCH_HOME_EXHIBITS, 1000, 'home-exhibits'),
    sites: wholeNumber(values.sites, env.BENCH_SITES, 20, 'sites'),
    organizations: wholeNumber(values.organizations, env.BENCH_ORGANIZATIONS, 3, 'organizations'),
    boards: wholeNumber(values.boards, env.BENCH_BOARDS, 10_000, 'boards'),
    siteExhibits: wholeNumber(values['site-exhibits'], env.BENCH_SITE_EXHIBITS, 1000, 'site-exhibits'),
    busyRate: wholeNumber(values.rate, env.BENCH_RATE, 1000, 'rate'),
    busyS: positiveNumber(values.busy, env.BENCH_BUSY, 20, 'busy'),
    memoryRate: wholeNumber(values['memory-rate'], env.BENCH_MEMORY_RATE, 100, 'memory-rate'),
    memoryS: positiveNumber(values.memory, env.BENCH_MEMORY, 120, 'memory'),
    heartbeatS: positiveNumber(values['heartbeat-seconds'], env.BENCH_HEARTBEAT_SECONDS, 20, 'heartbeat-seconds'),
    parts: new Set(String(typeof values.parts === 'string' ? values.parts : (env.BENCH_PARTS ?? 'home,lists,heartbeat,board,memory')).split(',')),
    cpuProfile: typeof values['cpu-profile'] === 'string' ? path.resolve(values['cpu-profile']) : null,
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[console] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (value: number) => `${value.toFixed(0)} ms`;
const verdict = (value: number, target: number) => ({ target: `< ${target} ms`, ok: value < target });

/**
 * Installed in every page before its scripts: long tasks (buffered from the navigation on) and,
 * per keystroke, the time from the key's event to the first frame after its input was handled.
 */
function instrumentPage(): void {
  const bench = { longTasks: [] as { start: number; duration: number }[], keystrokes: [] as number[] };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  let keyAt = 0;
  window.addEventListener('keydown', (event) => (keyAt = event.timeStamp), true);
  window.addEventListener(
    'input',
    () => {
      const at = keyAt;
      // After React handled the input: the next frame, then the task after its paint.
      requestAnimationFrame(() => setTimeout(() => bench.keystrokes.push(performance.now() - at)));
    },
    true,
  );
}

type PageBench = { longTasks: { start: number; duration: number }[]; keystrokes: number[] };
const readBench = (page: Page) => page.evaluate(() => (window as unknown as { __bench: PageBench }).__bench);
/** Time (ms after navigation start) of the task after the next frame. */
const afterNextFrame = (page: Page) =>
  page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now())))));
const maxOf = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);

/** Types `text` key by key into the focused box, then deletes it key by key: every keystroke's latency. */
async function keystrokeLatencies(page: Page, text: string): Promise<number[]> {
  const before = (await readBench(page)).keystrokes.length;
  for (const key of [...text.split(''), ...text.split('').map(() => 'Backspace')]) {
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    await sleep(120);
  }
  await sleep(300);
  return (await readBench(page)).keystrokes.slice(before);
}

function latencyFigures(label: string, latencies: number[]): Figure[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  const worst = maxOf(sorted);
  return [{ label: `${label}: keystroke latency p50 / max (${sorted.length} keys)`, value: `${ms(quantile(sorted, 0.5))} / ${ms(worst)}`, ...verdict(worst, TARGETS.keystrokeMs) }];
}

/** Organizations, sites through the API; exhibits spread over the sites straight into the database. */
async function seedHome(api: ApiClient, server: BenchServer, options: Options): Promise<void> {
  const organizations = [];
  for (let i = 0; i < options.organizations; i++) organizations.push(await api<{ id: string }>('POST', '/org-management/organization', { name: `Museum ${i + 1}` }));
  const siteIds: string[] = [];
  for (let i = 0; i < options.sites; i++) {
    const site = await api<{ id: string }>('POST', '/org-management/site', { name: `Hall ${i + 1}`, organizationId: organizations[i % organizations.length]!.id });
    siteIds.push(site.id);
  }
  const width = String(options.homeExhibits).length;
  await withClient(server, (client) =>
    client.query('insert into exhibits (site_id, name) select ($1::uuid[])[1 + (i % $3::int)], n from unnest($2::text[]) with ordinality as t(n, i)', [
      siteIds,
      Array.from({ length: options.homeExhibits }, (_, i) => `Exhibit ${String(i + 1).padStart(width, '0')}`),
      siteIds.length,
    ]),
  );
}

/** One site with `boards` hardware records and `siteExhibits` exhibits, straight into the database. */
async function seedVenue(api: ApiClient, server: BenchServer, options: Options): Promise<{ organizationId: string; siteId: string }> {
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Venue' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Main floor', organizationId: organization.id });
  const named = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${String(i + 1).padStart(String(count).length, '0')}`);
  await withClient(server, async (client) => {
    await client.query('insert into hardware (site_id, name) select $1::uuid, n from unnest($2::text[]) as t(n)', [site.id, named('Board', options.boards)]);
    await client.query('insert into exhibits (site_id, name) select $1::uuid, n from unnest($2::text[]) as t(n)', [site.id, named('Venue exhibit', options.siteExhibits)]);
  });
  return { organizationId: organization.id, siteId: site.id };
}

async function withClient<T>(server: BenchServer, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Home: time from navigation to the search box reflecting a typed key, then keystroke latency. */
async function measureHome(context: BrowserContext, server: BenchServer): Promise<Figure[]> {
  const interactive: number[] = [];
  let latencies: number[] = [];
  for (let run = 0; run < 3; run++) {
    const page = await context.newPage();
    await page.goto(server.url, { waitUntil: 'commit' });
    const search = page.getByRole('textbox', { name: HOME_SEARCH });
    await search.pressSequentially('E', { timeout: 30_000 });
    if ((await search.inputValue()) !== 'E') throw new Error('the home search box did not reflect the key typed');
    interactive.push(await afterNextFrame(page));
    if (process.env.BENCH_HOME_TIMELINE) {
      const timeline = await page.evaluate(() =>
        [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource'), ...performance.getEntriesByType('longtask')].map((e) => {
          const r = e as PerformanceResourceTiming;
          return `${Math.round(e.startTime)}-${Math.round(e.startTime + e.duration)} ${e.entryType} ${e.name.replace(/^https?:\/\/[^/]+/, '')} ${r.transferSize ?? ''} req@${Math.round(r.requestStart ?? 0)} resp@${Math.round(r.responseStart ?? 0)}`;
        }),
      );
      const lt = (await readBench(page)).longTasks.map((t) => `${Math.round(t.start)}+${Math.round(t.duration)}`).join(' ');
      log(`home run ${run}: interactive ${Math.round(interactive.at(-1)!)} ms\n  ${timeline.join('\n  ')}\n  long tasks: ${lt}`);
    }
    await page.keyboard.press('Backspace');
    await sleep(500);
    if (run === 2) latencies = await keystrokeLatencies(page, 'Exhibit 0500');
    await page.close();
  }
  const warm = quantile(interactive.slice(1).sort((a, b) => a - b), 0.5);
  return [
    { label: 'home: interactive, first visit (cold cache)', value: ms(interactive[0]!), ...verdict(interactive[0]!, TARGETS.interactiveMs) },
    { label: 'home: interactive, later visits (median of 2)', value: ms(warm), ...verdict(warm, TARGETS.interactiveMs) },
    ...latencyFigures('home search', latencies),
  ];
}

/** A site's list: long tasks while it renders, then while scrolled to its end, then its search. */
async function measureList(context: BrowserContext, options: { url: string; label: string; cardTestId: string; search: string }): Promise<Figure[]> {
  const page = await context.newPage();
  const profileFile = process.env.BENCH_LIST_PROFILE ? `${process.env.BENCH_LIST_PROFILE}-${options.cardTestId}.cpuprofile` : undefined;
  const cdp = profileFile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  await page.goto(options.url, { waitUntil: 'commit' });
  await page.getByTestId(options.cardTestId).first().waitFor({ timeout: 60_000 });
  const firstCard = await afterNextFrame(page);
  await sleep(1500);
  const rendered = (await readBench(page)).longTasks;
  if (cdp && profileFile) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(profileFile, JSON.stringify(profile));
    const timeline = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => `${Math.round(e.startTime)}-${Math.round(e.startTime + e.duration)} ${e.name.slice(-60)} ${(e as PerformanceResourceTiming).transferSize}`));
    log(`list timeline:\n  ${timeline.join('\n  ')}\n  long tasks: ${rendered.map((t) => `${Math.round(t.start)}+${Math.round(t.duration)}`).join(' ')}`);
  }
  const cards = await page.getByTestId(options.cardTestId).count();
  const scrollFrom = await page.evaluate(() => performance.now());
  for (let step = 0; step < 40; step++) {
    await page.mouse.wheel(0, 1500);
    await sleep(50);
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await sleep(500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(500);
  const scrolled = (await readBench(page)).longTasks.filter((t) => t.start >= scrollFrom);
  await page.getByRole('textbox', { name: options.search }).focus();
  const latencies = await keystrokeLatencies(page, options.label.includes('hardware') ? 'Board 0500' : 'exhibit 0500');
  await page.close();
  const renderMax = maxOf(rendered.map((t) => t.duration));
  const scrollMax = maxOf(scrolled.map((t) => t.duration));
  return [
    { label: `${options.label}: first card shown`, value: `${ms(firstCard)} (${cards} cards in the page)` },
    { label: `${options.label}: longest task while rendering`, value: `${ms(renderMax)} (${rendered.length} long tasks)`, ...verdict(renderMax, TARGETS.longTaskMs) },
    { label: `${options.label}: longest task while scrolling`, value: `${ms(scrollMax)} (${scrolled.length} long tasks)`, ...verdict(scrollMax, TARGETS.longTaskMs) },
    ...latencyFigures(options.label, latencies),
  ];
}

type Metrics = Record<string, number>;
async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Share of `wall` seconds the page's main thread ran tasks, and scripts, between two metric reads. */
function mainThreadShares(before: Metrics, after: Metrics, wall: number): { busy: number; scripting: number } {
  return { busy: (after.TaskDuration! - before.TaskDuration!) / wall, scripting: (after.ScriptDuration! - before.ScriptDuration!) / wall };
}

/** Counts the page's animation frames from now on (read with framesCounted). */
async function countFrames(page: Page): Promise<void> {
  // A string: tsx would wrap a named function in a helper the page does not have.
  await page.evaluate('window.__frames = { count: 0 }; (function tick() { window.__frames.count += 1; requestAnimationFrame(tick); })()');
}

const framesCounted = (page: Page) => page.evaluate(() => (window as unknown as { __frames: { count: number } }).__frames.count);

/** Sends `rate` changes a second of the driven prop (its value is a counter) until stopped; remembers when each left. */
function drive(board: SimulatedBoard, rate: number, sentAt: Map<number, number>, start: number): () => void {
  let next = start;
  const perTick = Math.max(1, Math.round(rate / 100));
  const timer = setInterval(() => {
    for (let i = 0; i < perTick; i++) {
      next += 1;
      sentAt.set(next, Date.now());
      void board.changeProp(DRIVEN.peripheralId, DRIVEN.propName, next);
    }
  }, 10);
  return () => clearInterval(timer);
}

/** Records, in the page, each value the driven prop shows and when (epoch ms, the machine's clock). */
async function watchValue(page: Page): Promise<void> {
  await page.evaluate((testId) => {
    const element = document.querySelector(`[data-testid="${testId}"]`)!;
    const seen: [string, number][] = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => seen.push([element.textContent ?? '', performance.timeOrigin + performance.now()])).observe(element, {
      characterData: true,
      childList: true,
      subtree: true,
    });
  }, DRIVEN.testId);
  await countFrames(page);
}

/** The board page while the board sends `rate` prop changes a second: main-thread busy fraction and how far behind the shown value is. */
async function measureBoardPage(context: BrowserContext, board: { page: string; board: SimulatedBoard }, options: Options): Promise<Figure[]> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const socket = { frames: 0 };
  page.on('websocket', (ws) => ws.on('framereceived', () => (socket.frames += 1)));
  await page.goto(board.page);
  await page.getByTestId(DRIVEN.testId).waitFor({ timeout: 30_000 });
  await sleep(1000);
  await watchValue(page);
  socket.frames = 0;
  const sentAt = new Map<number, number>();
  const before = await metrics(cdp);
  const wallFrom = Date.now();
  const driveFrom = await page.evaluate(() => performance.now());
  if (options.cpuProfile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const stop = drive(board.board, options.busyRate, sentAt, 0);
  await sleep(options.busyS * 1000);
  stop();
  const after = await metrics(cdp);
  if (options.cpuProfile) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(options.cpuProfile, JSON.stringify(profile));
    log(`CPU profile of the board page written to ${options.cpuProfile} (open it in Chromium's DevTools)`);
  }
  const wall = (Date.now() - wallFrom) / 1000;
  await sleep(1000);
  const seen = await page.evaluate(() => (window as unknown as { __seen: [string, number][] }).__seen);
  const frames = await framesCounted(page);
  const longTasks = (await readBench(page)).longTasks.filter((t) => t.start >= driveFrom);
  await page.close();
  const lags = seen
    .map(([text, at]) => {
      const sent = sentAt.get(Number(text));
      return sent === undefined ? null : at - sent;
    })
    .filter((lag): lag is number => lag !== null)
    .sort((a, b) => a - b);
  const { busy, scripting } = mainThreadShares(before, after, wall);
  const worst = maxOf(lags);
  // How long the page went without showing a newer value: the value on screen is that far behind too.
  const shownAt = [wallFrom, ...seen.map(([, at]) => at)];
  const longestGap = maxOf(shownAt.slice(1).map((at, i) => at - shownAt[i]!));
  const last = sentAt.size;
  const finalShown = Number(seen.at(-1)?.[0]);
  return [
    { label: `board page at ${options.busyRate}/s: changes sent / socket messages received / value updates shown`, value: `${last} / ${socket.frames} / ${seen.length} (${(seen.length / wall).toFixed(0)} a second; last shown ${finalShown} of ${last})` },
    { label: `board page at ${options.busyRate}/s: frames drawn, longest task while driven`, value: `${(frames / (wall + 1)).toFixed(0)} a second, ${ms(maxOf(longTasks.map((t) => t.duration)))}` },
    { label: `board page at ${options.busyRate}/s: main thread busy (${options.busyS} s)`, value: `${(busy * 100).toFixed(1)}% (scripts ${(scripting * 100).toFixed(1)}%)`, target: '< 50%', ok: busy < TARGETS.busy },
    { label: `board page at ${options.busyRate}/s: value lag p50 / p99 / max`, value: `${ms(quantile(lags, 0.5))} / ${ms(quantile(lags, 0.99))} / ${ms(worst)}`, ...verdict(worst, TARGETS.lagMs) },
    { label: `board page at ${options.busyRate}/s: longest time without a newer value shown`, value: ms(longestGap), ...verdict(longestGap, TARGETS.lagMs) },
  ];
}

/** The board page at `memoryRate` changes a second for `memoryS` seconds: JS heap and DOM nodes after a forced collection, sampled. */
async function measureMemory(context: BrowserContext, board: { page: string; board: SimulatedBoard }, options: Options): Promise<Figure[]> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(board.page);
  await page.getByTestId(DRIVEN.testId).waitFor({ timeout: 30_000 });
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const m = await metrics(cdp);
    return { heap: m.JSHeapUsedSize!, nodes: m.Nodes!, listeners: m.JSEventListeners! };
  };
  const stop = drive(board.board, options.memoryRate, new Map(), 1_000_000);
  await sleep(5000);
  const samples = [await sample()];
  const every = options.memoryS / 6;
  for (let i = 0; i < 6; i++) {
    await sleep(every * 1000);
    samples.push(await sample());
  }
  stop();
  await page.close();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  const first = samples[0]!;
  const lastSample = samples.at(-1)!;
  const growthPerMin = ((lastSample.heap - first.heap) / options.memoryS) * 60;
  return [
    { label: `board page at ${options.memoryRate}/s for ${options.memoryS} s: JS heap after GC`, value: `${samples.map((s) => mb(s.heap)).join(' → ')}` },
    { label: `board page at ${options.memoryRate}/s: heap growth`, value: `${(growthPerMin / 1024).toFixed(1)} KB a minute`, target: 'flat (< 100 KB/min)', ok: growthPerMin < 100 * 1024 },
    { label: `board page at ${options.memoryRate}/s: DOM nodes, listeners first → last`, value: `${first.nodes} → ${lastSample.nodes}, ${first.listeners} → ${lastSample.listeners}` },
  ];
}

/** Waits until `check` holds, polling every 200 ms; throws with `what` after `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * The site's hardware list while every board of the site is connected and heartbeats every 16 s
 * (DEFAULT_HEARTBEAT_MS: 625 heartbeats a second for 10,000 boards), from board-fleet processes
 * (bench/hardware-fleet.ts, the simulator library). Main-thread busy and long tasks over
 * `heartbeatS`; lag: the first card's board (run in this process) goes offline and online every
 * 1.5 s, and the time from each change to its badge changing is measured in the page.
 */
async function measureHeartbeat(context: BrowserContext, server: BenchServer, venue: { organizationId: string; siteId: string }, options: Options): Promise<Figure[]> {
  const fleetBoards = await withClient(server, async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from hardware where site_id = $1 order by name', [venue.siteId]);
    return createBoardTokens(
      client,
      rows.map((row) => row.id),
    );
  });
  // The first card (boards are listed by name): this process drives its presence.
  const [probe, ...rest] = fleetBoards;
  if (!probe) throw new Error('the site has no boards');
  const api = createApiClient(server.url, server.adminCookie);
  const { mqttPort } = await api<{ mqttPort: number }>('GET', '/config');
  const url = `mqtt://127.0.0.1:${mqttPort}`;
  const fleets = startFleets(Math.max(1, Math.ceil(rest.length / 5000)));
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${server.url}/organization/${venue.organizationId}/site/${venue.siteId}/hardware`, { waitUntil: 'commit' });
    await page.getByTestId('hardware-card').first().waitFor({ timeout: 60_000 });
    const connectFrom = Date.now();
    const share = Math.ceil(rest.length / fleets.length);
    fleets.forEach((fleet, i) =>
      tellFleet(fleet, {
        type: 'connect',
        url,
        boards: rest.slice(i * share, (i + 1) * share),
        // Spread over one heartbeat interval, so that the heartbeats arrive evenly.
        perSecond: rest.length / (DEFAULT_HEARTBEAT_MS / 1000) / fleets.length,
        inFlight: Math.max(10, Math.round(200 / fleets.length)),
        heartbeatMs: DEFAULT_HEARTBEAT_MS,
      }),
    );
    let board = await startSimulatedBoard({ url, hardwareId: probe.id, token: probe.token, heartbeatMs: DEFAULT_HEARTBEAT_MS });
    const progress = setInterval(() => log(`heartbeat: ${fleetTotals(fleets).ready} of ${rest.length} boards connected`), 10_000);
    await until(() => fleetTotals(fleets).ready + fleetTotals(fleets).failed >= rest.length, 'the boards to connect', 300_000).finally(() => clearInterval(progress));
    const connected = fleetTotals(fleets);
    log(`heartbeat: ${connected.ready + 1} boards connected in ${((Date.now() - connectFrom) / 1000).toFixed(1)} s (${connected.failed} failed)`);
    // Every board has heartbeated at least once before the window opens.
    await sleep(DEFAULT_HEARTBEAT_MS / 2);
    // A string: tsx would wrap the named helpers in a function the page does not have.
    await page.evaluate(`(() => {
      const card = document.querySelector('[data-testid="hardware-card"]');
      const seen = [];
      window.__presence = seen;
      const online = () => !(card.textContent || '').includes('Offline');
      let last = online();
      new MutationObserver(() => {
        if (online() === last) return;
        last = online();
        seen.push([last, performance.timeOrigin + performance.now()]);
      }).observe(card, { characterData: true, childList: true, subtree: true });
    })()`);
    await countFrames(page);
    const windowFrom = await page.evaluate(() => performance.now());
    const before = await metrics(cdp);
    const wallFrom = Date.now();
    // Each change: the state, when it was asked for, and when it was true (an online board is
    // online once the broker accepted its connection: the MQTT handshake, with the token checked,
    // is the board's time, not the console's).
    const changes: { online: boolean; askedAt: number; at: number }[] = [];
    while (Date.now() - wallFrom < options.heartbeatS * 1000) {
      await sleep(1500);
      const askedAt = Date.now();
      if (board.connected) {
        changes.push({ online: false, askedAt, at: askedAt });
        await board.stop();
      } else {
        board = await startSimulatedBoard({ url, hardwareId: probe.id, token: probe.token, heartbeatMs: DEFAULT_HEARTBEAT_MS });
        changes.push({ online: true, askedAt, at: Date.now() });
      }
    }
    const after = await metrics(cdp);
    const wall = (Date.now() - wallFrom) / 1000;
    await sleep(1000);
    const seen = await page.evaluate(() => (window as unknown as { __presence: [boolean, number][] }).__presence);
    const frames = await framesCounted(page);
    const longTasks = (await readBench(page)).longTasks.filter((t) => t.start >= windowFrom);
    await board.stop();
    // Each change is matched with the first badge change to the same state after it was asked for.
    const lags = changes
      .map(({ online, askedAt, at }) => {
        const shown = seen.find(([state, time]) => state === online && time >= askedAt);
        return shown ? Math.max(0, shown[1] - at) : null;
      })
      .filter((lag): lag is number => lag !== null)
      .sort((a, b) => a - b);
    const handshakes = changes.filter((c) => c.online).map((c) => c.at - c.askedAt).sort((a, b) => a - b);
    const { busy, scripting } = mainThreadShares(before, after, wall);
    const worst = maxOf(lags);
    const longest = maxOf(longTasks.map((t) => t.duration));
    const label = `hardware list (${fleetBoards.length}) while every board heartbeats (${((fleetBoards.length * 1000) / DEFAULT_HEARTBEAT_MS).toFixed(0)} a second)`;
    return [
      { label: `${label}: main thread busy (${options.heartbeatS} s)`, value: `${(busy * 100).toFixed(1)}% (scripts ${(scripting * 100).toFixed(1)}%)`, target: '< 50%', ok: busy < TARGETS.busy },
      { label: `${label}: frames drawn, longest task`, value: `${(frames / (wall + 1)).toFixed(0)} a second, ${ms(longest)} (${longTasks.length} long tasks)` },
      {
        label: `${label}: presence shown after p50 / max (${lags.length} of ${changes.length} changes seen; online from the broker's CONNACK)`,
        value: `${ms(quantile(lags, 0.5))} / ${ms(worst)}`,
        ...verdict(lags.length === changes.length ? worst : Infinity, TARGETS.lagMs),
      },
      { label: `${label}: the probe board's MQTT handshake (connect to CONNACK, token checked) p50 / max`, value: `${ms(quantile(handshakes, 0.5))} / ${ms(maxOf(handshakes))}` },
    ];
  } finally {
    await page.close();
    await stopFleets(fleets);
    await untilReady(server);
  }
}

/**
 * Waits for the server to answer `/readyz` again: 10,000 boards leaving at once keep its database
 * pool busy with their offline changes (and the notifications they queue) for a while.
 */
async function untilReady(server: BenchServer): Promise<void> {
  const from = Date.now();
  await server.untilReady(180_000);
  log(`the server was ready again ${((Date.now() - from) / 1000).toFixed(1)} s after the boards left`);
}

async function startBoard(api: ApiClient, venue: { organizationId: string; siteId: string }, server: BenchServer): Promise<{ page: string; board: SimulatedBoard }> {
  const hardware = await api<{ id: string }>('POST', '/hardware-mgmt/hardware', { name: 'Driven board', siteId: venue.siteId });
  const { token } = await api<{ token: string }>('POST', '/auth/hardware', { name: 'bench', hardwareId: hardware.id });
  const { mqttPort } = await api<{ mqttPort: number }>('GET', '/config');
  const board = await startSimulatedBoard({ url: `mqtt://127.0.0.1:${mqttPort}`, hardwareId: hardware.id, token, heartbeatMs: 2000 });
  return { page: `${server.url}/organization/${venue.organizationId}/site/${venue.siteId}/hardware/${hardware.id}/peripherals`, board };
}

async function main(): Promise<void> {
  const options = readOptions();
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first.');
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, webDist: WEB_DIST });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let board: SimulatedBoard | null = null;
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The admin's session (`plinth_session=…`), as the sign-in screen would have set it.
    await context.addCookies([{ name: SESSION_COOKIE, value: server.adminCookie.slice(SESSION_COOKIE.length + 1), url: server.url }]);
    await context.addInitScript(instrumentPage);

    const figures: Figure[] = [];
    await seedHome(api, server, options);
    log(`seeded ${options.homeExhibits} exhibits over ${options.sites} sites and ${options.organizations} organizations`);
    if (options.parts.has('home')) figures.push(...(await measureHome(context, server)));

    const venue = await seedVenue(api, server, options);
    log(`seeded a site with ${options.boards} boards and ${options.siteExhibits} exhibits`);
    const site = `${server.url}/organization/${venue.organizationId}/site/${venue.siteId}`;
    if (options.parts.has('lists')) {
      figures.push(...(await measureList(context, { url: `${site}/hardware`, label: `hardware list (${options.boards})`, cardTestId: 'hardware-card', search: 'Search for hardware' })));
      figures.push(...(await measureList(context, { url: `${site}/exhibits`, label: `exhibits list (${options.siteExhibits})`, cardTestId: 'exhibit-card', search: 'Search for an exhibit' })));
    }
    if (options.parts.has('heartbeat')) figures.push(...(await measureHeartbeat(context, server, venue, options)));

    if (options.parts.has('board') || options.parts.has('memory')) {
      const driven = await startBoard(api, venue, server);
      board = driven.board;
      if (options.parts.has('board')) figures.push(...(await measureBoardPage(context, driven, options)));
      if (options.parts.has('memory')) figures.push(...(await measureMemory(context, driven, options)));
    }
    printFigures(options, figures);
    const file = process.env.BENCH_RESULTS_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify({ name: 'console', options: { ...options, parts: [...options.parts] }, figures }, null, 2));
  } catch (error) {
    const tail = server.logTail(20);
    if (tail) log(`server log tail:\n${tail}`);
    throw error;
  } finally {
    await board?.stop();
    await browser.close();
    await server.stop();
  }
}

function printFigures(options: Options, figures: Figure[]): void {
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`\nConsole benchmark (Chromium, built console and server, PostgreSQL) ${new Date().toISOString()}: ${JSON.stringify({ ...options, parts: [...options.parts] })}`);
  for (const f of figures) {
    const mark = f.ok === undefined ? '' : f.ok ? `  ok (target ${f.target})` : `  MISSED (target ${f.target})`;
    console.log(`  ${f.label.padEnd(width)}  ${f.value}${mark}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[console] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
