#!/usr/bin/env node
// `npm test`: every suite, in order — the command line right after install, build and typecheck,
// lint, unit and integration (Vitest, against a real PostgreSQL), the Python SDK (pytest on
// Debian's Python), end to end (Playwright in Debian's Chromium). It installs what the suites need
// (Chromium, Mosquitto, Prometheus, HAProxy, python3-websockets and python3-pytest via apt-get) and starts
// PostgreSQL when it is installed but stopped.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);
const results = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${label}: ${res.status === 0 ? 'ok' : `failed (exit ${res.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (res.status !== 0) failures.push(label);
  return res.status === 0;
}

/** Installs Debian packages (as root, or through sudo). */
function aptInstall(...packages) {
  const asRoot = process.getuid?.() === 0;
  const [command, ...prefix] = asRoot ? ['apt-get'] : ['sudo', 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync(command, [...prefix, 'update'], { stdio: 'inherit', env });
  execFileSync(command, [...prefix, 'install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
}

function ensureChromium() {
  if (fs.existsSync('/usr/bin/chromium')) return;
  console.log('Chromium is missing: installing it with apt-get');
  aptInstall('chromium');
}

/** Debian's Python (not a pyenv one on PATH) with the Python SDK's only dependency and pytest. */
const PYTHON = '/usr/bin/python3';

function ensurePythonPackages() {
  if (spawnSync(PYTHON, ['-c', 'import websockets, pytest'], { stdio: 'ignore' }).status === 0) return;
  console.log('python3-websockets or python3-pytest is missing: installing them with apt-get');
  aptInstall('python3-websockets', 'python3-pytest');
}

/** Adds the counts of a JUnit XML report (pytest's --junitxml) to the results. */
function countJunit(file) {
  try {
    const suite = /<testsuite\b[^>]*>/.exec(fs.readFileSync(file, 'utf8'))?.[0] ?? '';
    const attribute = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    const failed = attribute('failures') + attribute('errors');
    const skipped = attribute('skipped');
    results.passed += attribute('tests') - failed - skipped;
    results.failed += failed;
    results.skipped += skipped;
  } catch {
    // pytest failed before writing its report; its exit code says so
  }
}

function ensureMosquitto() {
  if (spawnSync('sh', ['-c', 'command -v mosquitto || test -x /usr/sbin/mosquitto'], { stdio: 'ignore' }).status === 0) return;
  console.log('Mosquitto is missing: installing it with apt-get (the protocol tests run their own on a free port)');
  aptInstall('mosquitto');
}

function ensurePrometheus() {
  if (fs.existsSync('/usr/bin/prometheus')) return;
  console.log('Prometheus is missing: installing it with apt-get (the metrics test runs its own on a free port)');
  aptInstall('prometheus');
}

function ensureHaproxy() {
  if (spawnSync('sh', ['-c', 'command -v haproxy || test -x /usr/sbin/haproxy'], { stdio: 'ignore' }).status === 0) return;
  console.log('HAProxy is missing: installing it with apt-get (the deployment test puts it in front of two nodes)');
  aptInstall('haproxy');
}

function ensurePostgres() {
  const ready = () => spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], { stdio: 'ignore' }).status === 0;
  if (process.env.TEST_DATABASE_URL || ready()) return;
  if (!fs.existsSync('/etc/postgresql')) return; // the suites report a clear error
  console.log('PostgreSQL is not running: starting the local cluster');
  for (const version of fs.readdirSync('/etc/postgresql')) {
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  }
  for (let i = 0; i < 30 && !ready(); i++) spawnSync('sleep', ['0.5']);
}

function ensureRedis() {
  const ready = () => spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', '6379', 'ping'], { encoding: 'utf8' }).stdout?.includes('PONG');
  if (process.env.TEST_REDIS_URL || ready()) return;
  console.log('Redis is not running: starting it');
  const res = spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'inherit' });
  if (res.error) {
    aptInstall('redis-server');
    spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'inherit' });
  }
  for (let i = 0; i < 20 && !ready(); i++) spawnSync('sleep', ['0.25']);
}

function count(file, reader) {
  try {
    reader(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    // the runner failed before writing its report; its exit code says so
  }
}

const reports = path.join(root, 'test-results');
fs.mkdirSync(reports, { recursive: true });

ensurePostgres();
ensureRedis();
ensureMosquitto();
ensurePrometheus();
ensureHaproxy();
// First, before anything is built: what a fresh clone offers right after `npm install`.
if (want('install')) run('after install (command line, .env)', 'node', ['scripts/check-install.mjs']);
if (want('build')) {
  run('build', 'npm', ['run', 'build']);
  run('console first-load size', 'node', ['scripts/check-bundle-size.mjs']);
  run('typecheck (sources and tests)', 'npm', ['run', 'typecheck']);
}
if (want('lint')) run('lint (eslint, import walls)', 'npm', ['run', 'lint']);
if (want('vitest')) {
  const out = path.join(reports, 'vitest.json');
  fs.rmSync(out, { force: true });
  run('unit and integration (vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  count(out, (r) => {
    results.passed += r.numPassedTests ?? 0;
    results.failed += r.numFailedTests ?? 0;
    results.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  });
}
if (want('python')) {
  ensurePythonPackages();
  const out = path.join(reports, 'pytest.xml');
  fs.rmSync(out, { force: true });
  run('Python SDK (pytest)', PYTHON, ['-m', 'pytest', 'packages/sdk-python', '-p', 'no:cacheprovider', `--junitxml=${out}`]);
  countJunit(out);
}
if (want('e2e')) {
  ensureChromium();
  ensurePythonPackages();
  const out = path.join(reports, 'playwright.json');
  fs.rmSync(out, { force: true });
  run('end to end (playwright)', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  count(out, (r) => {
    results.passed += r.stats?.expected ?? 0;
    results.failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0) * 0;
    results.skipped += r.stats?.skipped ?? 0;
  });
}

console.log(`\nSuites failed: ${failures.length ? failures.join(', ') : 'none'}`);
console.log(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
