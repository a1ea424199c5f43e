import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import { runCli } from '../../cli.js';
import { loadConfig } from '../../config.js';
import { startServer, type RunningServer } from '../../server.js';
import { createExhibit, createHardware, createOrganization, createSite } from '../../test/factories.js';
import { download, downloadUrl, upload } from '../../test/files-kit.js';
import { newBoard, waitUntil, waitUntilAnnounced } from '../../test/hardware-kit.js';
import { TestClient } from '../../test/test-client.js';
import { createTestDatabase } from '../../test/test-server.js';
import { createUser } from '../auth/users.service.js';
import { firmwareKey } from '../hardware-runtime/firmware-store.js';

/**
 * Backup and restore, end to end: a running Plinth with people, an exhibit with settings and a
 * file, a board with firmware is backed up while it runs, restored into a fresh folder (or
 * database), and a second server on the restored data lets the same people sign in and the same
 * devices connect with their tokens.
 */

const MANIFEST: ManifestInput = { settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'Lobby' }] };
const PERSON = { email: 'curator@example.org', password: 'Backup-Passw0rd' };
const VIDEO = Buffer.from('the intro video, byte for byte');
const FIRMWARE = Buffer.from('plinth firmware image 47');

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const saved = { ...process.env };
afterAll(() => {
  for (const key of ['DATA_DIR', 'DATABASE_URL', 'SECRET_KEY']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(env: Record<string, string>): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', WEB_DIST: '/nonexistent', LOG_LEVEL: 'silent', ...env });
  const server = await startServer(config, { logger: pino({ level: 'silent' }) });
  // Closed by the test (to free its data), else after it.
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= server.close());
  cleanup.push(close);
  return { ...server, close };
}

/** Runs `plinth …` as a person would, with this environment. */
async function plinth(env: Record<string, string>, ...argv: string[]) {
  for (const key of ['DATA_DIR', 'DATABASE_URL', 'SECRET_KEY']) delete process.env[key];
  Object.assign(process.env, env);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { write: (t: string) => out.push(t) }, { write: (t: string) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

async function signIn(url: string): Promise<TestClient> {
  const client = new TestClient(url);
  const res = await client.post('/auth/user/login', PERSON);
  expect(res.status).toBe(200);
  return client;
}

function connectExhibit(url: string, exhibitId: string, token: string): Exhibit {
  const exhibit = new Exhibit({ serverUrl: url, exhibitId, token, manifest: MANIFEST, reconnectMinMs: 50, reconnectMaxMs: 200 });
  cleanup.push(() => exhibit.close());
  return exhibit;
}

/** A venue's data on `server`: answers what the restored copy must still have. */
async function populate(server: RunningServer) {
  await createUser(server.deps, { ...PERSON, firstName: 'Cora', lastName: 'Curator', isPlatformAdmin: true });
  const admin = await signIn(server.url);
  const organization = await createOrganization(server.deps.db);
  const site = await createSite(server.deps.db, organization.id);
  const exhibit = await createExhibit(server.deps.db, site.id, 'Tide Pool');
  const exhibitToken = (await admin.post('/auth/exhibit', { name: 'kiosk', exhibitId: exhibit.id })).body.token as string;
  const sdk = connectExhibit(server.url, exhibit.id, exhibitToken);
  await sdk.ready();
  expect((await admin.post(`/exhibit-management/exhibit/${exhibit.id}/setting/kiosk_name`, { value: 'North lobby' })).status).toBe(200);
  await waitUntil(() => sdk.getSetting('kiosk_name') === 'North lobby', 'the setting applied');
  sdk.close();
  expect((await upload(admin, { exhibitId: exhibit.id, siteId: site.id }, [{ name: 'intro.mp4', content: VIDEO }])).status).toBe(200);

  const hardware = await createHardware(server.deps.db, site.id, 'Wave tank');
  const boardToken = (await admin.post('/auth/hardware', { name: 'board', hardwareId: hardware.id })).body.token as string;
  const form = new FormData();
  form.append('file', new Blob([FIRMWARE]), 'tank.gbm0');
  expect((await admin.request('POST', `/content/firmware/upload?hardwareId=${hardware.id}&siteId=${site.id}`, form)).status).toBe(200);
  const registered = await admin.post('/hardware-mgmt/firmware', { hardwareId: hardware.id, isPlinthFirmware: true, fileName: 'tank.gbm0', name: 'Tank', version: '47.1' });
  expect(registered.status).toBe(200);
  return { exhibit, exhibitToken, hardware, boardToken, site };
}

type World = Awaited<ReturnType<typeof populate>>;

/** Everything of `world` is on `server`: the person signs in, the devices connect with their tokens, the setting and the files are there. */
async function expectRestored(server: RunningServer, world: World) {
  const admin = await signIn(server.url);
  const sdk = connectExhibit(server.url, world.exhibit.id, world.exhibitToken);
  await sdk.ready();
  expect(sdk.getSetting('kiosk_name')).toBe('North lobby');
  const file = await download(downloadUrl(server.url, world.exhibit.id, 'intro.mp4'), {}, admin);
  expect(file.status).toBe(200);
  expect(file.body.equals(VIDEO)).toBe(true);
  expect(await server.deps.files.stat(firmwareKey(world.hardware.id, 'tank.gbm0'))).toEqual({ size: FIRMWARE.length });

  const board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId: world.hardware.id, token: world.boardToken });
  cleanup.push(() => board.stop());
  await board.start();
  await waitUntilAnnounced(server, world.hardware.id);
}

describe('plinth backup and restore', () => {
  it('round-trips a running embedded (PGlite) Plinth into a fresh data folder', { timeout: 180_000 }, async () => {
    const source = tempDir('plinth-backup-a-');
    const target = tempDir('plinth-backup-b-');
    const archive = path.join(tempDir('plinth-archive-'), 'venue.tar.gz');
    const server = await start({ DATA_DIR: source });
    const world = await populate(server);

    // The server holds the embedded database: the command asks it for the archive, and it keeps running.
    const backup = await plinth({ DATA_DIR: source }, 'backup', archive);
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toContain('The server is running: asking it to write the backup');
    expect(backup.out).toMatch(/Backup written to .*venue\.tar\.gz: \d+ rows in \d+ tables, 2 stored files .* and the secrets key\./);
    expect((await signIn(server.url)).cookieHeader).toBeTruthy();
    // A backup never overwrites a file.
    expect((await plinth({ DATA_DIR: source }, 'backup', archive)).err).toContain('already exists');
    await server.close();

    const restored = await plinth({ DATA_DIR: target }, 'restore', archive);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/Restored \d+ rows in \d+ tables and 2 stored files from .*venue\.tar\.gz \(made .* by Plinth .* on pglite\)\./);
    expect(fs.readFileSync(path.join(target, 'secret.key'), 'utf8')).toBe(fs.readFileSync(path.join(source, 'secret.key'), 'utf8'));

    // A second restore into the same folder is refused: it holds data now.
    const again = await plinth({ DATA_DIR: target }, 'restore', archive);
    expect(again.code).toBe(1);
    expect(again.err).toContain('The target already holds data (1 user)');

    await expectRestored(await start({ DATA_DIR: target }), world);
  });

  it('round-trips a running PostgreSQL Plinth into a fresh database, and refuses a damaged archive', { timeout: 180_000 }, async () => {
    const sourceDb = await createTestDatabase();
    cleanup.push(sourceDb.drop);
    const targetDb = await createTestDatabase();
    cleanup.push(targetDb.drop);
    const secretKey = Buffer.alloc(32, 7).toString('base64');
    const source = { DATABASE_URL: sourceDb.url, DATA_DIR: tempDir('plinth-backup-pa-'), SECRET_KEY: secretKey };
    const target = { DATABASE_URL: targetDb.url, DATA_DIR: tempDir('plinth-backup-pb-'), SECRET_KEY: secretKey };
    const archive = path.join(tempDir('plinth-archive-'), 'venue.tar.gz');
    const server = await start(source);
    const world = await populate(server);

    const backup = await plinth(source, 'backup', archive);
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);

    // A damaged copy is refused before anything changes.
    const damaged = path.join(path.dirname(archive), 'damaged.tar.gz');
    const bytes = fs.readFileSync(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    const refused = await plinth(target, 'restore', damaged);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is (damaged|not a readable Plinth backup)/);

    const restored = await plinth(target, 'restore', archive);
    expect(restored.err).toBe('');
    expect(restored.out).toContain('SECRET_KEY matches the backup’s secrets key.');
    await server.close();
    await expectRestored(await start(target), world);
  });
});
