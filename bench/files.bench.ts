// Files benchmark (issue 10): on each database (PostgreSQL and the embedded PGlite), one Plinth
// server as it ships, then
//   1. one 1 GiB file uploaded through POST /content/files/upload (a streamed multipart body) and
//      downloaded through GET /content/files/ (streamed, hashed, checked against the upload's
//      SHA-256): throughput and the server's peak RSS, sampled every 100 ms;
//   2. 200 @plinth/sdk exhibits, followers of one leader holding a 100 MiB folder (10 files),
//      started at once in a few load processes, each mirroring into its own contentDir: time
//      until every exhibit holds every file, the server's peak RSS and CPU, the bytes delivered.
// Run through `npm run bench` after `npm run build` (see docs/performance.md):
//   npm run bench -- files --file-mib 64 --exhibits 20 --folder-mib 20 --database postgres
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ManifestInput } from '@plinth/shared';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { downloadHashed, megabytesPerSecond, uploadSynthetic, type DownloadResult, type SyntheticFile } from './lib/file-transfer.js';
import type { ExpectedFile, FilesLoadExhibit, FromFilesLoad, ToFilesLoad } from './lib/files-load.js';
import { databasePids, stopLoadProcesses } from './lib/load-processes.js';
import { isFromSource, positiveNumber, readFlags, wholeNumber } from './lib/options.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchDatabase, type BenchServer } from './lib/plinth-server.js';
import { rssBytes, startCpuWindow, startRssSampler } from './lib/proc-stats.js';
import { mapLimit, mib, quantile } from './lib/stats.js';

const MIB = 1024 * 1024;
const MANIFEST: ManifestInput = {
  statuses: [{ id: 'playing', type: 'String', display: 'Playing' }],
  settings: [{ id: 'video', type: 'FileSelection', display: 'Video' }],
};

type Options = {
  fileMib: number;
  /** Downloads of the large file, one after the other. */
  downloads: number;
  exhibits: number;
  folderMib: number;
  folderFiles: number;
  processes: number;
  databases: BenchDatabase[];
  /** Each exhibit gets its own copy of the folder instead of following one leader. */
  separate: boolean;
  timeoutS: number;
  fromSource: boolean;
};

function readOptions(): Options {
  const values = readFlags({
    'file-mib': { type: 'string' },
    downloads: { type: 'string' },
    exhibits: { type: 'string' },
    'folder-mib': { type: 'string' },
    'folder-files': { type: 'string' },
    processes: { type: 'string' },
    database: { type: 'string' },
    separate: { type: 'boolean' },
    timeout: { type: 'string' },
  });
  const env = process.env;
  const database = String(values.database ?? env.BENCH_DATABASE ?? 'both');
  if (!['postgres', 'pglite', 'both'].includes(database)) throw new Error(`--database must be postgres, pglite or both (got ${database})`);
  const exhibits = wholeNumber(values.exhibits, env.BENCH_EXHIBITS, 200, 'exhibits');
  return {
    fileMib: positiveNumber(values['file-mib'], env.BENCH_FILE_MIB, 1024, 'file-mib'),
    downloads: wholeNumber(values.downloads, env.BENCH_DOWNLOADS, 3, 'downloads'),
    exhibits,
    folderMib: positiveNumber(values['folder-mib'], env.BENCH_FOLDER_MIB, 100, 'folder-mib'),
    folderFiles: wholeNumber(values['folder-files'], env.BENCH_FOLDER_FILES, 10, 'folder-files'),
    processes: Math.min(exhibits, wholeNumber(values.processes, env.BENCH_PROCESSES, 4, 'processes')),
    databases: database === 'both' ? ['postgres', 'pglite'] : [database as BenchDatabase],
    separate: values.separate === true || env.BENCH_SEPARATE === '1',
    timeoutS: positiveNumber(values.timeout, env.BENCH_TIMEOUT, 1800, 'timeout'),
    fromSource: isFromSource(values),
  };
}

const log = (line: string) => console.log(`[files] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU seconds per GB (10^9 bytes) moved. */
const perGb = (cpuSeconds: number, bytes: number) => `${(cpuSeconds / (bytes / 1e9)).toFixed(2)} CPU s per GB`;
/** A change of memory with its sign. */
const growth = (bytes: number) => `${bytes < 0 ? '-' : '+'}${mib(Math.abs(bytes))}`;

/** What to undo when the run is interrupted (load processes, content folders, the server). */
const cleanups = new Set<() => Promise<void> | void>();
async function cleanUp(): Promise<void> {
  for (const undo of [...cleanups].reverse()) await Promise.resolve(undo()).catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

type Figure = { label: string; value: string; target?: string; ok?: boolean };
type Place = { siteId: string; exhibitId: string };

/** The server's RSS after a full collection and a short rest (what it holds before a transfer). */
async function restingRss(server: BenchServer): Promise<number> {
  await server.memory();
  await sleep(2000);
  return rssBytes(server.pid) ?? Number.NaN;
}

function filesUrl(server: BenchServer, route: string, query: Record<string, string>): string {
  return `${server.url}/api/v1/content/files/${route}?${new URLSearchParams(query).toString()}`;
}

/** Uploads synthetic files to an exhibit as the admin; throws unless the server stored them with the same SHA-256. */
async function upload(server: BenchServer, place: Place, files: SyntheticFile[]) {
  const result = await uploadSynthetic({ url: filesUrl(server, 'upload', { ...place }), headers: { cookie: server.adminCookie }, files });
  if (result.status !== 200) throw new Error(`the upload answered ${result.status}: ${result.body.slice(0, 300)}`);
  const stored = (JSON.parse(result.body) as { files: { name: string; size: number; sha256: string | null }[] }).files;
  for (const file of files) {
    const answer = stored.find((s) => s.name === file.name);
    if (!answer || answer.size !== file.size || answer.sha256 !== result.sha256.get(file.name)) {
      throw new Error(`the server stored ${file.name} as ${JSON.stringify(answer)}; sent ${file.size} bytes with SHA-256 ${result.sha256.get(file.name)}`);
    }
  }
  return result;
}

/** Part 1: one large file up and down, with the server's RSS sampled every 100 ms. */
async function measureBigFile(server: BenchServer, place: Place, options: Options): Promise<Figure[]> {
  const file: SyntheticFile = { name: 'big-video.bin', size: Math.round(options.fileMib * MIB), seed: 1 };
  const before = await restingRss(server);
  const loadBefore = os.loadavg()[0]!;
  let rss = startRssSampler(server.pid);
  let cpu = startCpuWindow(() => [server.pid]);
  const up = await upload(server, place, [file]);
  const upCpu = cpu.stop();
  const upRss = rss.stop();
  log(`uploaded ${mib(file.size)} in ${up.seconds.toFixed(1)} s (${megabytesPerSecond(file.size, up.seconds)}), server peak RSS ${mib(upRss.peak)}`);

  const beforeDown = await restingRss(server);
  rss = startRssSampler(server.pid);
  cpu = startCpuWindow(() => [server.pid]);
  // Several downloads one after the other: on loopback the rate of one varies a lot between runs.
  const downs: DownloadResult[] = [];
  for (let i = 0; i < options.downloads; i++) {
    downs.push(await downloadHashed({ url: filesUrl(server, '', { exhibitId: place.exhibitId, fileName: file.name }), headers: { cookie: server.adminCookie } }));
  }
  const downCpu = cpu.stop();
  const downRss = rss.stop();
  const sent = up.sha256.get(file.name)!;
  const intact = downs.every((down) => down.status === 200 && down.bytes === file.size && down.sha256 === sent);
  const rates = downs.map((down) => down.bytes / 1e6 / down.seconds);
  log(`downloaded ${mib(file.size)} ${downs.length} times: ${rates.map((r) => r.toFixed(0)).join(', ')} MB/s, server peak RSS ${mib(downRss.peak)}, ${intact ? 'same SHA-256' : 'DIFFERENT'}`);
  const api = createApiClient(server.url, server.adminCookie);
  await api('DELETE', `/content/files/?${new URLSearchParams({ ...place, fileName: file.name, confirm: 'true' }).toString()}`);

  const limit = Math.max(64 * MIB, file.size / 10);
  const growthUp = upRss.peak - before;
  const growthDown = downRss.peak - beforeDown;
  const size = mib(file.size);
  return [
    {
      label: `upload ${size} (one multipart request)`,
      value: `${up.seconds.toFixed(1)} s = ${megabytesPerSecond(file.size, up.seconds)}, server CPU ${upCpu.percentOfOneCore.toFixed(0)}% of a core, ${perGb(upCpu.cpuSeconds, file.size)}`,
    },
    {
      label: `download ${size} x ${downs.length} (hashed, checked)`,
      value: `${rates.map((r) => r.toFixed(0)).join(' / ')} MB/s (median ${quantile([...rates].sort((a, b) => a - b), 0.5).toFixed(0)}), server CPU ${downCpu.percentOfOneCore.toFixed(0)}% of a core, ${perGb(downCpu.cpuSeconds, file.size * downs.length)}`,
      target: 'same bytes',
      ok: intact,
    },
    { label: 'server RSS before / peak during upload', value: `${mib(before)} / ${mib(upRss.peak)} (${growth(growthUp)})`, target: `growth < ${mib(limit)}`, ok: growthUp < limit },
    { label: 'server RSS before / peak during download', value: `${mib(beforeDown)} / ${mib(downRss.peak)} (${growth(growthDown)})`, target: `growth < ${mib(limit)}`, ok: growthDown < limit },
    { label: `machine load average (1 min, ${os.cpus().length} cores)`, value: `${loadBefore.toFixed(2)} before the upload, ${os.loadavg()[0]!.toFixed(2)} after the download` },
  ];
}

/** The exhibits that sync: followers of one leader holding the folder (or, with --separate, each its own copy). */
async function createSyncExhibits(server: BenchServer, api: ApiClient, siteId: string, options: Options) {
  const folder: SyntheticFile[] = Array.from({ length: options.folderFiles }, (_, i) => ({
    name: `clip-${String(i + 1).padStart(2, '0')}.bin`,
    size: Math.round((options.folderMib * MIB) / options.folderFiles),
    seed: 100 + i,
  }));
  const leader = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: 'Leader with the folder', siteId });
  const started = performance.now();
  const uploaded = await upload(server, { siteId, exhibitId: leader.id }, folder);
  log(`uploaded the folder (${folder.length} files, ${mib(uploaded.bytes)}) to the leader in ${uploaded.seconds.toFixed(1)} s`);
  const width = String(options.exhibits).length;
  const exhibits = await mapLimit(Array.from({ length: options.exhibits }, (_, i) => i), 8, async (index): Promise<FilesLoadExhibit> => {
    const exhibit = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: `Exhibit ${String(index + 1).padStart(width, '0')}`, siteId });
    if (options.separate) await upload(server, { siteId, exhibitId: exhibit.id }, folder);
    else await api('PUT', `/exhibit-management/exhibit/${exhibit.id}`, { leaderId: leader.id });
    const token = await api<{ token: string }>('POST', '/auth/exhibit', { name: 'benchmark', exhibitId: exhibit.id });
    return { id: exhibit.id, token: token.token, index };
  });
  const setupS = (performance.now() - started) / 1000;
  // A follower lists its leader's files: the folder each SDK exhibit must end up with.
  const listed = await api<{ files: { name: string; size: number; sha256: string | null }[] }>(
    'GET',
    `/content/files/ls?${new URLSearchParams({ exhibitId: exhibits[0]!.id, siteId }).toString()}`,
  );
  const expected: ExpectedFile[] = folder.map((f) => ({ name: f.name, size: f.size, sha256: uploaded.sha256.get(f.name)! }));
  const missing = expected.filter((want) => !listed.files.some((f) => f.name === want.name && f.sha256 === want.sha256));
  if (missing.length) throw new Error(`exhibit 1 does not list ${missing.map((m) => m.name).join(', ')}${options.separate ? '' : ' (do followers use their leader\'s files? try --separate)'}`);
  return { exhibits, expected, setupS, folderBytes: folder.reduce((n, f) => n + f.size, 0) };
}

type LoadProcess = { child: ChildProcess; progress: Extract<FromFilesLoad, { type: 'progress' }> | null };

/** Forks the load processes and waits until each has loaded the SDK. */
async function forkLoad(count: number, synced: Map<number, number>): Promise<LoadProcess[]> {
  const processes = Array.from({ length: count }, () => {
    const child = fork(path.join(ROOT, 'bench/lib/files-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const load: LoadProcess = { child, progress: null };
    child.on('message', (message: FromFilesLoad) => {
      if (message.type === 'progress') load.progress = message;
      if (message.type === 'synced') synced.set(message.index, message.at);
    });
    return load;
  });
  await Promise.all(processes.map((p) => next(p.child, 'loaded')));
  return processes;
}

/** The next message of a type from a load process. */
function next<T extends FromFilesLoad['type']>(child: ChildProcess, type: T): Promise<Extract<FromFilesLoad, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromFilesLoad) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<FromFilesLoad, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`a load process exited (${code}) before it said ${type}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Waits until every exhibit has reported the folder in sync (or the timeout), logging progress every 5 s. */
async function waitForSync(processes: LoadProcess[], synced: Map<number, number>, options: Options): Promise<void> {
  const deadline = Date.now() + options.timeoutS * 1000;
  let lastLine = Date.now();
  while (synced.size < options.exhibits) {
    await sleep(200);
    const errors = [...new Set(processes.flatMap((p) => p.progress?.errors ?? []))];
    if (Date.now() - lastLine >= 5000) {
      lastLine = Date.now();
      const ready = processes.reduce((n, p) => n + (p.progress?.ready ?? 0), 0);
      log(`syncing: ${ready} connected, ${synced.size} of ${options.exhibits} hold the folder${errors.length ? `; errors: ${errors.join('; ')}` : ''}`);
    }
    if (Date.now() > deadline) throw new Error(`only ${synced.size} of ${options.exhibits} exhibits held the folder after ${options.timeoutS} s; errors: ${errors.join('; ')}`);
  }
}

/** Part 2: the exhibits started at once, each mirroring the folder into its own contentDir. */
async function measureFolderSync(server: BenchServer, api: ApiClient, siteId: string, options: Options): Promise<Figure[]> {
  const { exhibits, expected, setupS, folderBytes } = await createSyncExhibits(server, api, siteId, options);
  log(`${exhibits.length} exhibits ${options.separate ? 'with their own copy of the folder' : 'following the leader'}, set up in ${setupS.toFixed(1)} s`);
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-content-'));
  const synced = new Map<number, number>();
  let processes: LoadProcess[] = [];
  const undo = async () => {
    await stopLoadProcesses(processes.map((p) => p.child), { type: 'close' } satisfies ToFilesLoad, 10_000);
    fs.rmSync(baseDir, { recursive: true, force: true });
  };
  cleanups.add(undo);
  try {
    processes = await forkLoad(options.processes, synced);
    const before = await restingRss(server);
    const loadBefore = os.loadavg()[0]!;
    let dbPids = await databasePids(server);
    const rss = startRssSampler(server.pid);
    const serverCpu = startCpuWindow(() => [server.pid]);
    const dbCpu = startCpuWindow(() => dbPids);
    const loadCpu = startCpuWindow(() => processes.map((p) => p.child.pid!));
    const startedAt = Date.now();
    processes.forEach((p, i) => {
      const mine = exhibits.filter((e) => e.index % processes.length === i);
      p.child.send({ type: 'start', serverUrl: server.url, exhibits: mine, baseDir, expected, manifest: MANIFEST } satisfies ToFilesLoad);
    });
    await waitForSync(processes, synced, options);
    const seconds = (Date.now() - startedAt) / 1000;
    dbPids = [...new Set([...dbPids, ...(await databasePids(server))])];
    const [cpu, db, load, memory] = [serverCpu.stop(), dbCpu.stop(), loadCpu.stop(), rss.stop()];
    const loadEnd = os.loadavg()[0]!;
    const verified = await Promise.all(processes.map(async (p) => {
      const answer = next(p.child, 'verified');
      p.child.send({ type: 'verify' } satisfies ToFilesLoad);
      return answer;
    }));
    const onDisk = verified.reduce((n, v) => n + v.bytesOnDisk, 0);
    const filesOnDisk = verified.reduce((n, v) => n + v.filesOnDisk, 0);
    const mismatches = verified.flatMap((v) => v.mismatches);
    const times = [...synced.values()].map((at) => (at - startedAt) / 1000).sort((a, b) => a - b);
    const want = folderBytes * options.exhibits;
    const errors = [...new Set(processes.flatMap((p) => p.progress?.errors ?? []))];
    if (errors.length) log(`SDK errors seen during the sync: ${errors.join('; ')}`);
    return [
      { label: 'exhibits syncing / how the folder reaches them', value: `${options.exhibits} in ${options.processes} processes / ${options.separate ? 'each its own upload' : 'followers of one leader'}` },
      { label: 'setup (folder upload, exhibits, tokens)', value: `${setupS.toFixed(1)} s` },
      { label: 'time until every exhibit holds the folder', value: `${seconds.toFixed(1)} s (per exhibit p50 ${quantile(times, 0.5).toFixed(1)} s, p95 ${quantile(times, 0.95).toFixed(1)} s, first ${times[0]!.toFixed(1)} s)` },
      { label: 'bytes delivered (on disk) / expected', value: `${(onDisk / 1e9).toFixed(2)} GB in ${filesOnDisk} files / ${(want / 1e9).toFixed(2)} GB`, target: 'all', ok: onDisk === want && filesOnDisk === expected.length * options.exhibits },
      { label: 'aggregate delivery rate', value: megabytesPerSecond(onDisk, seconds) },
      { label: 'first exhibit\'s files hashed from disk', value: mismatches.length ? `MISMATCH ${mismatches.join(', ')}` : `${verified[0]?.hashed ?? 0} files, same SHA-256`, ok: mismatches.length === 0 },
      { label: 'server RSS before / peak during the sync', value: `${mib(before)} / ${mib(memory.peak)} (${growth(memory.peak - before)})` },
      { label: 'server CPU during the sync', value: `${cpu.percentOfOneCore.toFixed(0)}% of one core (${cpu.cpuSeconds.toFixed(0)} s in ${cpu.seconds.toFixed(0)} s), ${perGb(cpu.cpuSeconds, onDisk)}` },
      ...(server.database === 'postgres' ? [{ label: 'PostgreSQL backends CPU during the sync', value: `${db.percentOfOneCore.toFixed(1)}% of one core` }] : []),
      { label: 'load processes (SDK exhibits) CPU', value: `${load.percentOfOneCore.toFixed(0)}% of one core, ${perGb(load.cpuSeconds, onDisk)}` },
      { label: `machine load average (1 min, ${os.cpus().length} cores)`, value: `${loadBefore.toFixed(2)} at the start of the sync, ${loadEnd.toFixed(2)} at its end` },
    ];
  } finally {
    cleanups.delete(undo);
    await undo();
  }
}

/** Both parts on one database; a fresh server each time. */
async function runOn(database: BenchDatabase, options: Options): Promise<Figure[]> {
  const server = await startBenchServer({ mode: options.fromSource ? 'source' : 'dist', log, database });
  cleanups.add(server.stop);
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Benchmark museum' });
    const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Benchmark hall', organizationId: organization.id });
    const big = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name: 'Big file', siteId: site.id });
    const figures = await measureBigFile(server, { siteId: site.id, exhibitId: big.id }, options);
    figures.push(...(await measureFolderSync(server, api, site.id, options)));
    return figures;
  } catch (error) {
    const tail = server.logTail(20);
    if (tail) log(`server log tail:\n${tail}`);
    throw error;
  } finally {
    cleanups.delete(server.stop);
    await server.stop();
    log(`stopped the server (${database}), removed its data directory`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  log(
    `${options.fileMib} MiB file; ${options.exhibits} exhibits syncing ${options.folderMib} MiB in ${options.folderFiles} files ` +
      `(${options.processes} load processes); databases: ${options.databases.join(', ')}`,
  );
  checkServerBuild(options.fromSource ? 'source' : 'dist', log);
  const figures: Figure[] = [];
  let failed = false;
  for (const database of options.databases) {
    try {
      const measured = await runOn(database, options);
      figures.push(...measured.map((f) => ({ ...f, label: `${database}: ${f.label}` })));
    } catch (error) {
      failed = true;
      log(`${database} failed: ${(error as Error).message}`);
      figures.push({ label: `${database}: run`, value: `FAILED: ${(error as Error).message.split('\n')[0]}`, ok: false });
    }
  }
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`\nFiles benchmark (${new Date().toISOString()}, ${os.cpus().length} cores)`);
  for (const f of figures) {
    const target = f.target ? ` (target ${f.target})` : '';
    const verdict = f.ok === undefined ? '' : f.ok ? `  ok${target}` : `  MISSED${target}`;
    console.log(`  ${f.label.padEnd(width)}  ${f.value}${verdict}`);
  }
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'files', options, figures }, null, 2));
  if (failed) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(`[files] failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
