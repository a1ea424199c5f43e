// Runs the two examples of packages/sdk against a real Plinth server, the way its README says
// (PLINTH_URL, EXHIBIT_ID, EXHIBIT_TOKEN; `node examples/<name>.mjs` in packages/sdk), and checks
// what a user would see: the exhibit comes online, statuses arrive, controls, settings and op
// mode reach the example, logs and report events are stored, Ctrl+C stops it cleanly.
//   node --import tsx bench/sdk-examples.check.ts [--from-source]
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createApiClient, type ApiClient } from './lib/api-client.js';
import { checkServerBuild, ROOT, startBenchServer, type BenchServer } from './lib/plinth-server.js';

type Manifest = { manifest: { statuses: { manifestId: string; value: unknown }[]; settings: { manifestId: string; applied: boolean }[] } };

const mode = process.argv.includes('--from-source') || process.env.BENCH_FROM_SOURCE === '1' ? 'source' : 'dist';
const log = (line: string) => console.log(`[sdk-examples] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let failures = 0;

function check(ok: boolean, what: string): void {
  if (!ok) failures += 1;
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

/** Starts an example; `output()` answers everything it printed so far. */
function runExample(server: BenchServer, file: string, exhibitId: string, token: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [file], {
    cwd: path.join(ROOT, 'packages/sdk'),
    env: { ...process.env, PLINTH_URL: server.url, EXHIBIT_ID: exhibitId, EXHIBIT_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  return { child, output: () => text };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(100);
  }
  return false;
}

async function stopExample(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

async function newExhibit(api: ApiClient, siteId: string, name: string): Promise<{ id: string; token: string }> {
  const exhibit = await api<{ id: string }>('POST', '/exhibit-management/exhibit', { name, siteId });
  const token = await api<{ token: string }>('POST', '/auth/exhibit', { name: 'example', exhibitId: exhibit.id });
  return { id: exhibit.id, token: token.token };
}

async function statusOf(api: ApiClient, exhibitId: string, statusId: string): Promise<unknown> {
  const manifest = await api<Manifest>('GET', `/exhibit-management/exhibit/${exhibitId}/manifest`);
  return manifest.manifest.statuses.find((s) => s.manifestId === statusId)?.value;
}

async function isOnline(api: ApiClient, exhibitId: string): Promise<boolean> {
  return (await api<{ online: boolean }>('GET', `/exhibit-management/exhibit/${exhibitId}`)).online;
}

async function main(): Promise<void> {
  checkServerBuild(mode, log);
  const server = await startBenchServer({ mode, log });
  const running: ChildProcess[] = [];
  try {
    const api = createApiClient(server.url, server.adminCookie);
    const organization = await api<{ id: string }>('POST', '/org-management/organization', { name: 'Example museum' });
    const site = await api<{ id: string }>('POST', '/org-management/site', { name: 'Example hall', organizationId: organization.id });

    // --- examples/minimal.mjs ---
    const minimal = await newExhibit(api, site.id, 'Minimal example');
    const a = runExample(server, 'examples/minimal.mjs', minimal.id, minimal.token);
    running.push(a.child);
    check(await until(() => a.output().includes('ready; settings:')), 'minimal.mjs prints "ready" with its settings');
    check(await until(async () => (await statusOf(api, minimal.id, 'ip_address')) === '127.0.0.1'), 'minimal.mjs: status ip_address reaches the server');
    check(await isOnline(api, minimal.id), 'minimal.mjs: the exhibit is online');
    check(await until(async () => Number((await server.query<{ n: number }>(`select count(*)::int as n from log_entries where device_id = '${minimal.id}' and message = 'minimal exhibit started'`))[0]?.n) === 1), 'minimal.mjs: its log line is stored');
    check((await stopExample(a.child)) === 0, 'minimal.mjs stops with exit code 0 on Ctrl+C');
    check(await until(async () => !(await isOnline(api, minimal.id))), 'minimal.mjs: the exhibit is offline after Ctrl+C');
    log(`minimal.mjs printed:\n${a.output().trimEnd().replace(/^/gm, '    ')}`);

    // A wrong token: the example must say so and stop, not retry forever.
    const wrong = runExample(server, 'examples/minimal.mjs', minimal.id, 'not-the-token');
    running.push(wrong.child);
    const wrongExit = await Promise.race([new Promise<number | null>((resolve) => wrong.child.once('exit', resolve)), sleep(15_000).then(() => 'timeout' as const)]);
    check(wrongExit !== 'timeout' && wrongExit !== 0, `minimal.mjs with a wrong token exits with an error (exit ${String(wrongExit)})`);
    check(/not valid/.test(wrong.output()), 'minimal.mjs with a wrong token says the id or token is not valid');

    // --- examples/controls-and-settings.mjs ---
    const full = await newExhibit(api, site.id, 'Controls and settings example');
    const b = runExample(server, 'examples/controls-and-settings.mjs', full.id, full.token);
    running.push(b.child);
    check(await until(() => b.output().includes('ready in op mode')), 'controls-and-settings.mjs prints "ready in op mode"');
    const base = `/exhibit-management/exhibit/${full.id}`;
    await api('POST', `${base}/opMode`, { opMode: 'On' });
    check(await until(() => b.output().includes('op mode On')), 'the console\'s op mode On reaches the example');
    await api('POST', `${base}/control/reload`);
    await api('POST', `${base}/control/volume?itemId=up`);
    check(await until(() => b.output().includes('control reload') && b.output().includes('control volume up')), 'controls (single and group button) reach the example');
    await api('POST', `${base}/setting/kiosk_name`, { value: 'Hall B kiosk' });
    await api('POST', `${base}/setting/attract_loop`, { value: false });
    await api('POST', `${base}/setting/idle_timeout_secs`, { value: 120 });
    check(
      await until(() => b.output().includes("setting kiosk_name = Hall B kiosk") && b.output().includes('setting attract_loop = false') && b.output().includes('setting idle_timeout_secs = 120')),
      'saved settings reach the example, typed',
    );
    const applied = await until(async () => {
      const manifest = await api<Manifest>('GET', `${base}/manifest`);
      const saved = manifest.manifest.settings.filter((s) => ['kiosk_name', 'attract_loop', 'idle_timeout_secs'].includes(s.manifestId));
      return saved.length === 3 && saved.every((s) => s.applied);
    });
    check(applied, 'the server sees those settings applied (acknowledged)');
    await api('POST', `${base}/settinglist/scenes`, { listName: 'Finale' });
    check(await until(() => /list scenes:.*Finale/.test(b.output())), 'a new setting-list item reaches the example');
    check(await until(async () => Number(await statusOf(api, full.id, 'count')) >= 1, 12_000), 'the visitor count status arrives while On (every 5 s)');
    check(
      await until(async () => Number((await server.query<{ n: number }>(`select count(*)::int as n from report_events where device_id = '${full.id}'`))[0]?.n) >= 1),
      'report events are stored',
    );
    check((await stopExample(b.child)) === 0, 'controls-and-settings.mjs stops with exit code 0 on Ctrl+C');
    log(`controls-and-settings.mjs printed:\n${b.output().trimEnd().replace(/^/gm, '    ')}`);
  } finally {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
    await server.stop();
  }
  log(failures ? `${failures} check(s) failed` : 'every check passed');
  process.exit(failures ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(`[sdk-examples] failed: ${(error as Error).message}`);
  process.exit(1);
});
