import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@plinth/shared';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { hardwareTokens, sitePermissions } from '../../db/schema.js';
import { createHardwareRow, createToken, hardwareRow, newBoard, waitUntil } from '../../test/hardware-kit.js';
import { startTestS3 } from '../../test/s3-server.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { firmwareKey } from './firmware-store.js';

let server: TestServer;
let admin: TestClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-hw-'));
  server = await startTestServer({ DATA_DIR: dataDir });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function userWithSiteRole(siteId: string, role: Role): Promise<TestClient> {
  const user = await server.signUp();
  await server.deps.db.insert(sitePermissions).values({ siteId, userId: user.id, role });
  return user.client;
}

describe('hardware tokens', () => {
  it('shows a token once, keeps only its hash, lists it, and lets only managers delete it', async () => {
    const { hardwareId, siteId } = await createHardwareRow(server);
    const developer = await userWithSiteRole(siteId, 'DEVELOPER');
    const viewer = await userWithSiteRole(siteId, 'VIEWER');
    const manager = await userWithSiteRole(siteId, 'MANAGER');
    const stranger = (await server.signUp()).client;

    const created = await developer.post('/auth/hardware', { name: 'Gallery board', hardwareId });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Gallery board' });
    expect(created.body.token.length).toBeGreaterThan(30);
    const [stored] = await server.deps.db.select().from(hardwareTokens).where(eq(hardwareTokens.id, created.body.id));
    expect(stored!.tokenHash).not.toContain(created.body.token);

    const list = await developer.get(`/auth/hardware/${hardwareId}`);
    expect(list.body).toEqual({ tokens: [{ id: created.body.id, name: 'Gallery board', createdAt: expect.any(String) }] });
    expect((await viewer.post('/auth/hardware', { name: 'x', hardwareId })).status).toBe(403);
    expect((await viewer.get(`/auth/hardware/${hardwareId}`)).status).toBe(403);
    expect((await stranger.get(`/auth/hardware/${hardwareId}`)).status).toBe(404);
    expect((await developer.post('/auth/hardware', { name: '', hardwareId })).body.response).toMatch(/^name: /);

    expect((await developer.delete(`/auth/hardware/delete-token/${created.body.id}`)).status).toBe(403);
    expect((await stranger.delete(`/auth/hardware/delete-token/${created.body.id}`)).status).toBe(404);
    expect((await manager.delete(`/auth/hardware/delete-token/${created.body.id}`)).status).toBe(200);
    expect((await manager.get(`/auth/hardware/${hardwareId}`)).body).toEqual({ tokens: [] });
  });
});

describe('debug mode and commands while offline', () => {
  it('refuses debug on, commands, prop sets and firmware pushes while the board is offline', async () => {
    const { hardwareId } = await createHardwareRow(server);
    await expect(server.deps.hardwareGateway.setDebug(hardwareId, true)).rejects.toMatchObject({ code: 'HardwareOffline' });
    expect(await server.deps.hardwareGateway.setDebug(hardwareId, false)).toBe(false);
    const reboot = await admin.get(`/hardware-mgmt/hardware/${hardwareId}/reboot`);
    expect(reboot.status).toBe(409);
    expect(reboot.body.response).toBe('HardwareOffline');
  });

  it('lets a viewer see the hardware but not command it', async () => {
    const { hardwareId, siteId } = await createHardwareRow(server);
    const viewer = await userWithSiteRole(siteId, 'VIEWER');
    expect((await viewer.get(`/hardware-mgmt/hardware/${hardwareId}/identify`)).status).toBe(403);
    expect((await viewer.get(`/hardware-mgmt/firmware?hardwareId=${hardwareId}`)).status).toBe(200);
  });
});

describe('firmware', () => {
  const upload = (client: TestClient, q: { hardwareId: string; siteId: string }, name: string, content: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    return client.request('POST', `/content/firmware/upload?hardwareId=${q.hardwareId}&siteId=${q.siteId}`, form);
  };

  it('validates uploads and records as the spec says', async () => {
    const ids = await createHardwareRow(server);
    expect((await upload(admin, ids, 'board.bin', Buffer.from('x'))).body.response).toMatch(/Invalid file type/);
    expect((await upload(admin, ids, '[ORG]board.gbm0', Buffer.from('x'))).status).toBe(400);
    const ok = await upload(admin, ids, 'board.gbm0', Buffer.from('firmware bytes'));
    expect(ok.body).toEqual({ fileName: 'board.gbm0', fileSize: '14' });
    // Kept in the file store (deps.files), not in a folder of its own.
    expect(await server.deps.files.stat(firmwareKey(ids.hardwareId, 'board.gbm0'))).toEqual({ size: 14 });
    expect(fs.existsSync(path.join(dataDir, 'firmware'))).toBe(false);

    const base = { hardwareId: ids.hardwareId, isPlinthFirmware: true, fileName: 'board.gbm0', name: 'Main "board"/v2', version: '2.1' };
    const wrongKind = await admin.post('/hardware-mgmt/firmware', { ...base, isPlinthFirmware: false });
    expect(wrongKind.body.response).toBe('fileName: Invalid file type: This file needs to be a .gbm4 file.');
    const badVersion = await admin.post('/hardware-mgmt/firmware', { ...base, version: '1.2.3' });
    expect(badVersion.body.response).toBe('version: Invalid version: The version needs to be in the format Major.Minor');
    const created = await admin.post('/hardware-mgmt/firmware', base);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Main boardv2', version: '2.1', fileSize: '14', isPlinthFirmware: true });

    const replaced = await upload(admin, ids, 'board.gbm0', Buffer.from('other bytes'));
    expect(replaced.status).toBe(409);
    expect(replaced.body.response).toMatch(/already exists/);

    const inUse = await admin.request('DELETE', `/content/firmware?hardwareId=${ids.hardwareId}&siteId=${ids.siteId}&firmware=board.gbm0`);
    expect(inUse.status).toBe(409);
    expect((await admin.delete(`/hardware-mgmt/firmware/${created.body.id}`)).status).toBe(200);
    const removed = await admin.request('DELETE', `/content/firmware?hardwareId=${ids.hardwareId}&siteId=${ids.siteId}&firmware=board.gbm0`);
    expect(removed.status).toBe(200);
    expect(await server.deps.files.stat(firmwareKey(ids.hardwareId, 'board.gbm0'))).toBeNull();
    const again = await admin.request('DELETE', `/content/firmware?hardwareId=${ids.hardwareId}&siteId=${ids.siteId}&firmware=board.gbm0`);
    expect(again.status).toBe(404);
    const list = await admin.get(`/hardware-mgmt/firmware?hardwareId=${ids.hardwareId}`);
    expect(list.body).toMatchObject({ plinthFirmware: [], userFirmware: [], plinthFirmwareHistory: [], userFirmwareHistory: [] });
  });

  it('pushes a firmware to a live board, which downloads, checks, applies and reconnects with the new version', async () => {
    const ids = await createHardwareRow(server);
    const { token } = await createToken(admin, ids.hardwareId);
    const board: SimulatedBoard = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId: ids.hardwareId, token });
    await board.start();
    try {
      await waitUntil(async () => (await hardwareRow(server, ids.hardwareId)).plinthFw === '46', 'the board announced');
      await upload(admin, ids, 'plinth-47.gbm0', Buffer.alloc(4096, 7));
      const created = await admin.post('/hardware-mgmt/firmware', {
        hardwareId: ids.hardwareId, isPlinthFirmware: true, fileName: 'plinth-47.gbm0', name: 'Plinth 47', version: '47',
      });
      const pushed = await admin.post(`/hardware-mgmt/firmware/${created.body.id}/upload`);
      expect(pushed.status).toBe(200);
      expect(pushed.body.history).toMatchObject({ FirmwareId: created.body.id, version: '47', status: 'pending' });
      await waitUntil(async () => (await hardwareRow(server, ids.hardwareId)).plinthFw === '47', 'the new version announced');
      const list = await waitUntil(async () => {
        const res = await admin.get(`/hardware-mgmt/firmware?hardwareId=${ids.hardwareId}`);
        return res.body.plinthFirmwareHistory[0]?.status === 'applied' ? res.body : null;
      }, 'the history entry applied');
      expect(list.currentPlinthVersion).toBe('47');
      expect(board.plinthFw).toBe('47');

      // A download without the board's token is refused.
      const anonymous = await server.client().get(`/hardware-device/firmware/${created.body.id}`);
      expect(anonymous.status).toBe(401);
    } finally {
      await board.stop();
    }
    await waitUntil(async () => !(await hardwareRow(server, ids.hardwareId)).online, 'offline after stop');
    const firmwareId = (await admin.get(`/hardware-mgmt/firmware?hardwareId=${ids.hardwareId}`)).body.plinthFirmware[0].id;
    const offline = await admin.post(`/hardware-mgmt/firmware/${firmwareId}/upload`);
    expect(offline.status).toBe(409);
  });
});

describe('firmware in an S3 store shared by two nodes', () => {
  const upload = (client: TestClient, q: { hardwareId: string; siteId: string }, name: string, content: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    return client.request('POST', `/content/firmware/upload?hardwareId=${q.hardwareId}&siteId=${q.siteId}`, form);
  };
  const download = async (node: TestServer, firmwareId: string, auth: { hardwareId: string; token: string }) => {
    const res = await fetch(`${node.url}/api/v1/hardware-device/firmware/${firmwareId}`, {
      headers: { authorization: `Basic ${Buffer.from(`${auth.hardwareId}:${auth.token}`).toString('base64')}` },
    });
    return { status: res.status, sha256: res.headers.get('x-checksum-sha256'), bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it('moves firmware left in DATA_DIR/firmware into the store at start, and serves it from any node', async () => {
    const s3 = await startTestS3();
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-hw-a-'));
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-hw-b-'));
    let nodeA: TestServer | undefined;
    let nodeB: TestServer | undefined;
    try {
      nodeA = await startTestServer({ DATA_DIR: dirA, ...s3.env });
      const adminA = (await nodeA.signUp({ isPlatformAdmin: true })).client;
      const ids = await createHardwareRow(nodeA);
      // Node B ran an earlier version: its firmware sits on its own disk, with an interrupted upload beside it.
      const legacy = Buffer.from('firmware uploaded before the file store');
      const legacyDir = path.join(dirB, 'firmware', ids.hardwareId);
      fs.mkdirSync(legacyDir, { recursive: true });
      fs.writeFileSync(path.join(legacyDir, 'légacy 1.gbm0'), legacy);
      fs.writeFileSync(path.join(legacyDir, 'other.gbm4.1234.partial'), 'half');
      nodeB = await startTestServer({ DATA_DIR: dirB, ...s3.env }, { databaseUrl: nodeA.databaseUrl });
      expect(fs.existsSync(path.join(dirB, 'firmware'))).toBe(false);
      expect(await nodeA.deps.files.stat(firmwareKey(ids.hardwareId, 'légacy 1.gbm0'))).toEqual({ size: legacy.length });

      // Node A, which never had the file, records it and serves it to the board.
      const created = await adminA.post('/hardware-mgmt/firmware', {
        hardwareId: ids.hardwareId, isPlinthFirmware: true, fileName: 'légacy 1.gbm0', name: 'Legacy', version: '1.0',
      });
      expect(created.status).toBe(200);
      expect(created.body.fileSize).toBe(String(legacy.length));
      const token = await createToken(adminA, ids.hardwareId);
      const got = await download(nodeA, created.body.id, { hardwareId: ids.hardwareId, token: token.token });
      expect(got).toMatchObject({ status: 200, sha256: sha256(legacy) });
      expect(got.bytes.equals(legacy)).toBe(true);

      // A file uploaded through node B is recorded and downloaded through node A.
      const adminB = await nodeB.signIn((await nodeB.signUp({ isPlatformAdmin: true })).email, 'Passw0rd!');
      const fresh = Buffer.alloc(300 * 1024, 9);
      expect((await upload(adminB, ids, 'fresh.gbm4', fresh)).body).toEqual({ fileName: 'fresh.gbm4', fileSize: String(fresh.length) });
      const user = await adminA.post('/hardware-mgmt/firmware', {
        hardwareId: ids.hardwareId, isPlinthFirmware: false, fileName: 'fresh.gbm4', name: 'Fresh', version: '2.0',
      });
      expect(user.status).toBe(200);
      const second = await download(nodeA, user.body.id, { hardwareId: ids.hardwareId, token: token.token });
      expect(second.sha256).toBe(sha256(fresh));
      expect(second.bytes.equals(fresh)).toBe(true);
    } finally {
      await nodeB?.stop();
      await nodeA?.stop();
      await s3.close();
      fs.rmSync(dirA, { recursive: true, force: true });
      fs.rmSync(dirB, { recursive: true, force: true });
    }
  });
});
