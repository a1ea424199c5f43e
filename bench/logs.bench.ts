// Logs and reports benchmark (issue "Logs and reports"): a venue of 1,000 exhibits and 2,000 boards
// that has been logging for months. Seeds 10 million log rows and 5 million report events into
// PostgreSQL (1 million of the rows on one exhibit, for the CSV), then measures through the REST
// API: one page of one exhibit's logs over 24 hours (with and without level filters), an exhibit
// report over 30 days at 1 hour and a hardware 14-day report, a CSV export of 1 million rows
// (rows a second, the server's peak memory), and sustained log ingest from SDK exhibits and MQTT
// boards while probe exhibits and boards measure the live status and prop latency. Run through
// `npm run bench` (see docs/performance.md):
//   npm run bench -- logs --rows 1000000 --events 500000 --csv-rows 100000 --duration 10
import { fork } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { parseServerMessage, type ManifestInput } from '@plinth/shared';
import { hashSecret, newSecret } from '../apps/server/src/lib/crypto.js';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { isFromSource, positiveNumber, readFlags, wholeNumber } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchServer } from './lib/plinth-server.js';
import { rssBytes, startCpuWindow } from './lib/proc-stats.js';
import { mib, quantile } from './lib/stats.js';
import type { FromLogsLoad, LoadDevice, ToLogsLoad } from './lib/logs-load.js';

const TARGETS = { pageP95Ms: 50, reportP95Ms: 200, ingestPerSecond: 20_000, liveP99Ms: 100 };
const DAY_MS = 86_400_000;
const STATUS_ID = 'bench_sent_at';
const MANIFEST: ManifestInput = { statuses: [{ id: STATUS_ID, type: 'String', display: 'Benchmark send time' }] };

type Options = {
  exhibits: number;
  boards: number;
  rows: number;
  events: number;
  csvRows: number;
  samples: number;
  rate: number;
  durationS: number;
  loadExhibits: number;
  loadBoards: number;
  /** Of the load's exhibits and boards, how many send a status or a prop every 200 ms instead of logging. */
  probeExhibits: number;
  probeBoards: number;
  /** The server's V8 heap limit in MiB (--max-old-space-size), 0 for Node's default: proves the CSV export does not hold its rows. */
  serverHeapMib: number;
  fromSource: boolean;
};

function readOptions(): Options {
  const values = readFlags({
    exhibits: { type: 'string' },
    boards: { type: 'string' },
    rows: { type: 'string' },
    events: { type: 'string' },
    'csv-rows': { type: 'string' },
    samples: { type: 'string' },
    rate: { type: 'string' },
    duration: { type: 'string' },
    'load-exhibits': { type: 'string' },
    'load-boards': { type: 'string' },
    'probe-exhibits': { type: 'string' },
    'probe-boards': { type: 'string' },
    'server-heap-mib': { type: 'string' },
  });
  const env = process.env;
  return {
    exhibits: wholeNumber(values.exhibits, env.BENCH_EXHIBITS, 1000, 'exhibits'),
    boards: wholeNumber(values.boards, env.BENCH_BOARDS, 2000, 'boards'),
    rows: wholeNumber(values.rows, env.BENCH_ROWS, 10_000_000, 'rows'),
    events: wholeNumber(values.events, env.BENCH_EVENTS, 5_000_000, 'events'),
    csvRows: wholeNumber(values['csv-rows'], env.BENCH_CSV_ROWS, 1_000_000, 'csv-rows'),
    samples: wholeNumber(values.samples, env.BENCH_SAMPLES, 200, 'samples'),
    rate: wholeNumber(values.rate, env.BENCH_RATE, TARGETS.ingestPerSecond, 'rate'),
    durationS: positiveNumber(values.duration, env.BENCH_DURATION, 30, 'duration'),
    loadExhibits: wholeNumber(values['load-exhibits'], env.BENCH_LOAD_EXHIBITS, 200, 'load-exhibits'),
    loadBoards: wholeNumber(values['load-boards'], env.BENCH_LOAD_BOARDS, 400, 'load-boards'),
    // The live traffic of the exhibits and hardware benchmarks beside the ingest: 200 statuses
    // and 1,000 prop changes a second.
    probeExhibits: wholeNumber(values['probe-exhibits'], env.BENCH_PROBE_EXHIBITS, 40, 'probe-exhibits'),
    probeBoards: wholeNumber(values['probe-boards'], env.BENCH_PROBE_BOARDS, 200, 'probe-boards'),
    serverHeapMib: values['server-heap-mib'] === undefined && env.BENCH_SERVER_HEAP_MIB === undefined ? 0 : wholeNumber(values['server-heap-mib'], env.BENCH_SERVER_HEAP_MIB, 0, 'server-heap-mib'),
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[logs] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (value: number) => `${value.toFixed(1)} ms`;

type Venue = { siteId: string; exhibits: LoadDevice[]; boards: LoadDevice[] };

/** The organization and site through the API; the exhibits, boards and their tokens in SQL (as the hardware bench does). */
async function createVenue(server: BenchServer, api: ApiClient, options: Options): Promise<Venue> {
  const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Benchmark museum' });
  const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Benchmark hall', organizationId: organization.id });
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
    const exhibitRows = await client.query<{ id: string }>(
      'insert into exhibits (site_id, name) select $1::uuid, n from unnest($2::text[]) with ordinality as t(n, i) order by i returning id',
      [site.id, names('Exhibit', options.exhibits)],
    );
    const boardRows = await client.query<{ id: string }>(
      'insert into hardware (site_id, name) select $1::uuid, n from unnest($2::text[]) with ordinality as t(n, i) order by i returning id',
      [site.id, names('Board', options.boards)],
    );
    const withTokens = (rows: { id: string }[]) => rows.map((row) => ({ id: row.id, token: newSecret() }));
    const exhibits = withTokens(exhibitRows.rows);
    const boards = withTokens(boardRows.rows);
    await client.query("insert into exhibit_tokens (exhibit_id, name, token_hash) select e, 'benchmark', h from unnest($1::uuid[], $2::text[]) as t(e, h)", [
      exhibits.map((e) => e.id),
      exhibits.map((e) => hashSecret(e.token)),
    ]);
    await client.query("insert into hardware_tokens (hardware_id, name, token_hash) select b, 'benchmark', h from unnest($1::uuid[], $2::text[]) as t(b, h)", [
      boards.map((b) => b.id),
      boards.map((b) => hashSecret(b.token)),
    ]);
    return { siteId: site.id, exhibits, boards };
  } finally {
    await client.end();
  }
}

/**
 * Months of history in SQL, in chunks of a million rows: log rows spread over the exhibits and
 * boards and the last 90 days (the first exhibit gets `csvRows` of them over 30 days), report
 * events over the exhibits with five names and ten values. Day partitions first.
 */
async function seedHistory(server: BenchServer, venue: Venue, options: Options): Promise<{ seconds: number }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    await client.query("select plinth_day_partition(t, d::date) from unnest(array['log_entries','report_events']) t, generate_series(now() - interval '91 days', now() + interval '1 day', interval '1 day') d");
    const devices = [...venue.exhibits.map((e) => e.id), ...venue.boards.map((b) => b.id)];
    const exhibitCount = venue.exhibits.length;
    const chunk = 1_000_000;
    const big = venue.exhibits[0]!.id;
    for (let done = 0; done < options.csvRows; done += chunk) {
      const n = Math.min(chunk, options.csvRows - done);
      await client.query(
        `insert into log_entries (source, device_id, at, level, event_type, message)
         select 'exhibit', $1::uuid, now() - random() * interval '30 days', (array['debug','info','warn','error'])[1 + i % 4], (array['debug','info','warn','error'])[1 + i % 4],
                '{"visitor":' || i || ',"scene":"intro","fps":' || (30 + i % 30) || '}'
         from generate_series(1, $2::int) i`,
        [big, n],
      );
      log(`seeded ${done + n} log rows of the CSV exhibit`);
    }
    for (let done = options.csvRows; done < options.rows; done += chunk) {
      const n = Math.min(chunk, options.rows - done);
      await client.query(
        `insert into log_entries (source, device_id, at, level, event_type, message)
         select case when d <= $3 then 'exhibit' else 'hardware' end, ($1::uuid[])[d], now() - random() * interval '90 days',
                (array['debug','info','info','info','warn','error'])[1 + i % 6],
                case when d <= $3 then (array['info','info','online','offline','control','setting'])[1 + i % 6] else (array['info','button','prop','online','offline','reboot'])[1 + i % 6] end,
                'bench line ' || i
         from generate_series(1, $2::int) i, lateral (select 1 + (i::bigint * 7919) % array_length($1::uuid[], 1) as d) pick`,
        [devices, n, exhibitCount],
      );
      log(`seeded ${done + n} of ${options.rows} log rows`);
    }
    const exhibitIds = venue.exhibits.map((e) => e.id);
    for (let done = 0; done < options.events; done += chunk) {
      const n = Math.min(chunk, options.events - done);
      await client.query(
        `insert into report_events (source, device_id, at, name, value)
         select 'exhibit', ($1::uuid[])[1 + (i::bigint * 7919) % array_length($1::uuid[], 1)], now() - random() * interval '90 days',
                (array['visit','start','finish','share','photo'])[1 + i % 5], 'value ' || (i % 10)
         from generate_series(1, $2::int) i`,
        [exhibitIds, n],
      );
      log(`seeded ${done + n} of ${options.events} report events`);
    }
    // Months of history written over months were vacuumed along the way; rows loaded in two
    // minutes would otherwise be vacuumed by autovacuum, and their pages flushed by the
    // checkpointer, during the measured minutes.
    await client.query('vacuum (analyze) log_entries');
    await client.query('vacuum (analyze) report_events');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
  return { seconds: (performance.now() - started) / 1000 };
}

/** Times `count` calls of `call`, one after another; answers the sorted durations in ms. */
async function timeCalls(count: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call(i);
    durations.push(performance.now() - started);
  }
  return durations.sort((a, b) => a - b);
}

const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length]!;

async function measureQueries(api: ApiClient, venue: Venue, options: Options) {
  const now = Date.now();
  const day = { start: now - DAY_MS, end: now };
  // The CSV exhibit is left out: it holds far more than a typical exhibit's 24 hours.
  const exhibits = venue.exhibits.slice(1);
  const page = await timeCalls(options.samples, (i) =>
    api('GET', `/logging/exhibit?exhibitId=${pick(exhibits, i).id}&start=${day.start}&end=${day.end}&pageIdx=0&logsPerPage=20`),
  );
  const filtered = await timeCalls(options.samples, (i) =>
    api('GET', `/logging/exhibit?exhibitId=${pick(exhibits, i).id}&start=${day.start}&end=${day.end}&pageIdx=0&logsPerPage=20&levels=warn,error`),
  );
  const reportCount = Math.max(10, Math.round(options.samples / 4));
  const report = await timeCalls(reportCount, (i) =>
    api('GET', `/reporting/exhibit/report?exhibitId=${pick(exhibits, i).id}&start=${now - 30 * DAY_MS}&end=${now}&interval=3600&timeZone=Europe/Amsterdam`),
  );
  const byValue = await timeCalls(reportCount, (i) =>
    api('GET', `/reporting/exhibit/report?exhibitId=${pick(exhibits, i).id}&start=${now - 30 * DAY_MS}&end=${now}&interval=3600&filter=value&timeZone=Europe/Amsterdam`),
  );
  const hardware = await timeCalls(reportCount, (i) =>
    api('GET', `/reporting/hardware/report?hardwareId=${pick(venue.boards, i).id}&start=${now - 14 * DAY_MS}&end=${now}&timeZone=Europe/Amsterdam`),
  );
  return { page, filtered, report, byValue, hardware };
}

/** Streams the CSV exhibit's 30 days as CSV, counting rows, and samples the server's RSS meanwhile. */
async function measureCsv(server: BenchServer, venue: Venue, expectedRows: number) {
  const now = Date.now();
  const url = `${server.url}/api/v1/logging/exhibit/csv?id=${venue.exhibits[0]!.id}&start=${now - 31 * DAY_MS}&end=${now}`;
  const before = rssBytes(server.pid) ?? 0;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(server.pid) ?? 0);
  }, 100);
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie: server.adminCookie, accept: 'text/csv' } });
  if (!res.ok || !res.body) throw new Error(`CSV answered ${res.status}`);
  let newlines = 0;
  let bytes = 0;
  // The peak RSS once a tenth of the rows are through: memory that grew with the rows would show
  // as a final peak well above this one.
  let peakAtTenth = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) newlines += 1;
    if (!peakAtTenth && newlines >= expectedRows / 10) peakAtTenth = Math.max(peak, rssBytes(server.pid) ?? 0);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  // Rows with a newline inside a quoted field would count twice; the bench's messages have none.
  const rows = newlines - 1;
  return { rows, bytes, seconds, before, peak, peakAtTenth, contentType: res.headers.get('content-type') ?? '' };
}

type LiveProbe = { statusMs: number[]; propMs: number[]; close: () => void };

/** A console socket subscribed to the probe devices: the latency of each probe value it sees. */
async function openProbeSocket(server: BenchServer, exhibits: LoadDevice[], boards: LoadDevice[]): Promise<LiveProbe> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: server.adminCookie } });
  const probe: LiveProbe = { statusMs: [], propMs: [], close: () => socket.close() };
  socket.on('message', (data) => {
    const message = parseServerMessage(data.toString());
    if (!message || !('type' in message)) return;
    if (message.type === 'exhibit.statusChanged' && message.statusId === STATUS_ID) probe.statusMs.push(Date.now() - Number(message.value));
    if (message.type === 'hardware.propChanged' && message.propName === 'text') probe.propMs.push(Date.now() - Number(message.value));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', exhibitIds: exhibits.map((e) => e.id), hardwareIds: boards.map((b) => b.id) }));
  await sleep(500);
  return probe;
}

async function countRows(server: BenchServer): Promise<number> {
  const [row] = await server.query<{ n: string }>("select count(*) as n from log_entries where at > now() - interval '1 hour'");
  return Number(row!.n);
}

/** Sustained ingest from SDK exhibits and MQTT boards in a child process, with live probes beside it. */
async function measureIngest(server: BenchServer, venue: Venue, options: Options) {
  const api = createApiClient(server.url, server.adminCookie);
  const config = await api<{ mqttPort: number }>('GET', '/config');
  const exhibits = venue.exhibits.slice(1, 1 + options.loadExhibits);
  const boards = venue.boards.slice(0, options.loadBoards);
  if (options.probeExhibits >= exhibits.length || options.probeBoards >= boards.length) {
    throw new Error(`--probe-exhibits (${options.probeExhibits}) and --probe-boards (${options.probeBoards}) must stay below --load-exhibits and --load-boards: the rest log`);
  }
  const probes = { exhibits: exhibits.slice(0, options.probeExhibits), boards: boards.slice(0, options.probeBoards) };
  const child = fork(path.join(ROOT, 'bench/lib/logs-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const next = (type: FromLogsLoad['type']) =>
    new Promise<FromLogsLoad>((resolve) => {
      const onMessage = (message: FromLogsLoad) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
    });
  const send = (message: ToLogsLoad) => child.send(message);
  try {
    send({ type: 'connect', serverUrl: server.url, mqttUrl: `mqtt://127.0.0.1:${config.mqttPort}`, exhibits, boards, manifest: MANIFEST });
    const connected = await next('connected');
    log(`ingest load connected: ${JSON.stringify(connected)}`);
    const probe = await openProbeSocket(server, probes.exhibits, probes.boards);
    const before = await countRows(server);
    const cpu = startCpuWindow(() => [server.pid]);
    const loadCpu = startCpuWindow(() => (child.pid ? [child.pid] : []));
    send({ type: 'run', linesPerSecond: options.rate, durationMs: options.durationS * 1000, probeExhibits: probes.exhibits.length, probeBoards: probes.boards.length, probeMs: 200, statusId: STATUS_ID });
    const ran = (await next('ran')) as Extract<FromLogsLoad, { type: 'ran' }>;
    const serverCpu = cpu.stop();
    const loadProcessCpu = loadCpu.stop();
    // Let the writers' last batches land.
    await sleep(3000);
    const stored = (await countRows(server)) - before;
    probe.close();
    send({ type: 'close' });
    await next('closed');
    return { ran, stored, serverCpu, loadProcessCpu, statusMs: probe.statusMs.sort((a, b) => a - b), propMs: probe.propMs.sort((a, b) => a - b) };
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const mode = options.fromSource ? 'source' : 'dist';
  checkServerBuild(mode, log);
  const server = await startBenchServer({ mode, log, heapMib: options.serverHeapMib || undefined });
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const venue = await createVenue(server, api, options);
    log(`venue: ${venue.exhibits.length} exhibits, ${venue.boards.length} boards`);
    const seed = await seedHistory(server, venue, options);
    log(`seeded ${options.rows} log rows and ${options.events} report events in ${seed.seconds.toFixed(0)} s`);
    const queries = await measureQueries(api, venue, options);
    const csv = await measureCsv(server, venue, options.csvRows);
    const ingest = await measureIngest(server, venue, options);
    const figures = [
      { label: 'seeded log rows / report events', value: `${options.rows} / ${options.events} in ${seed.seconds.toFixed(0)} s` },
      { label: 'one page of 24 h, with numLogs: p50 / p95', value: `${ms(quantile(queries.page, 0.5))} / ${ms(quantile(queries.page, 0.95))}`, ok: quantile(queries.page, 0.95) <= TARGETS.pageP95Ms, target: `p95 <= ${TARGETS.pageP95Ms} ms` },
      { label: 'the same, levels warn,error: p50 / p95', value: `${ms(quantile(queries.filtered, 0.5))} / ${ms(quantile(queries.filtered, 0.95))}`, ok: quantile(queries.filtered, 0.95) <= TARGETS.pageP95Ms, target: `p95 <= ${TARGETS.pageP95Ms} ms` },
      { label: 'exhibit report 30 days at 1 h: p50 / p95', value: `${ms(quantile(queries.report, 0.5))} / ${ms(quantile(queries.report, 0.95))}`, ok: quantile(queries.report, 0.95) <= TARGETS.reportP95Ms, target: `p95 <= ${TARGETS.reportP95Ms} ms` },
      { label: 'the same, by value: p50 / p95', value: `${ms(quantile(queries.byValue, 0.5))} / ${ms(quantile(queries.byValue, 0.95))}`, ok: quantile(queries.byValue, 0.95) <= TARGETS.reportP95Ms, target: `p95 <= ${TARGETS.reportP95Ms} ms` },
      { label: 'hardware report 14 days: p50 / p95', value: `${ms(quantile(queries.hardware, 0.5))} / ${ms(quantile(queries.hardware, 0.95))}`, ok: quantile(queries.hardware, 0.95) <= TARGETS.reportP95Ms, target: `p95 <= ${TARGETS.reportP95Ms} ms` },
      { label: 'CSV export: rows, time, rows a second', value: `${csv.rows} rows, ${(csv.bytes / 1024 / 1024).toFixed(0)} MiB in ${csv.seconds.toFixed(1)} s = ${Math.round(csv.rows / csv.seconds)} rows/s (${csv.contentType})` },
      { label: 'CSV export: server RSS before / peak at a tenth / peak', value: `${mib(csv.before)} / ${mib(csv.peakAtTenth)} / ${mib(csv.peak)}` },
      { label: 'server V8 heap limit', value: options.serverHeapMib ? `${options.serverHeapMib} MiB (--max-old-space-size)` : 'Node default' },
      {
        label: 'ingest: lines sent (SDK + MQTT) / stored a second',
        value: `${Math.round((ingest.ran.sdkLines + ingest.ran.mqttLines) / options.durationS)} / ${Math.round(ingest.stored / options.durationS)} (${ingest.ran.sdkLines} + ${ingest.ran.mqttLines} sent, ${ingest.stored} stored)`,
        ok: ingest.stored / options.durationS >= TARGETS.ingestPerSecond,
        target: `>= ${TARGETS.ingestPerSecond} /s`,
      },
      { label: 'ingest: server / load process CPU', value: `${ingest.serverCpu.percentOfOneCore.toFixed(0)}% / ${ingest.loadProcessCpu.percentOfOneCore.toFixed(0)}% of one core` },
      { label: 'during ingest: status latency p50 / p99', value: `${ms(quantile(ingest.statusMs, 0.5))} / ${ms(quantile(ingest.statusMs, 0.99))} (${ingest.statusMs.length} of ${ingest.ran.probeStatuses} seen, ${Math.round(ingest.ran.probeStatuses / options.durationS)} a second)`, ok: quantile(ingest.statusMs, 0.99) < TARGETS.liveP99Ms, target: `p99 < ${TARGETS.liveP99Ms} ms` },
      { label: 'during ingest: prop latency p50 / p99', value: `${ms(quantile(ingest.propMs, 0.5))} / ${ms(quantile(ingest.propMs, 0.99))} (${ingest.propMs.length} of ${ingest.ran.probeProps} seen, ${Math.round(ingest.ran.probeProps / options.durationS)} a second)`, ok: quantile(ingest.propMs, 0.99) < TARGETS.liveP99Ms, target: `p99 < ${TARGETS.liveP99Ms} ms` },
    ];
    for (const f of figures) log(`${f.label.padEnd(52)} ${f.value}${f.target ? `  ${f.ok ? 'ok' : 'MISSED'} (target ${f.target})` : ''}`);
    if (process.env.BENCH_RESULTS_FILE) {
      const fs = await import('node:fs');
      fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'logs', figures }));
    }
  } finally {
    await server.stop();
    log('stopped the server, dropped the database');
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
