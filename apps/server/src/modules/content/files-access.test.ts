import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_PREFIX_MESSAGE } from '@plinth/shared';
import { openExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createHardware, createOrganization, createSite, createWorld, eventsDuring, userWith } from '../../test/factories.js';
import { basicAuth, download, downloadUrl, startLocalStore, startS3Store, upload, type TestStore } from '../../test/files-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * Who may do what with an exhibit's files, the name rules, the size limit, followers, the
 * exhibit's own Basic-auth download and the clean-up when an exhibit is deleted.
 */

const STORES: { name: string; start: () => Promise<TestStore> }[] = [
  { name: 'local disk', start: startLocalStore },
  { name: 'S3 (s3rver)', start: startS3Store },
];

describe.each(STORES)('files on the $name store', (setup) => {
  let store: TestStore;
  let server: TestServer;
  let admin: TestClient;
  let world: Awaited<ReturnType<typeof createWorld>>;
  let where: { exhibitId: string; siteId: string };

  beforeAll(async () => {
    store = await setup.start();
    server = await startTestServer(store.env);
    admin = (await server.signUp({ isPlatformAdmin: true })).client;
    world = await createWorld(server);
    where = { exhibitId: world.exhibit.id, siteId: world.siteA.id };
    expect((await upload(admin, where, [{ name: 'intro.mp4', content: 'intro bytes', type: 'video/mp4' }])).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
  });

  const lsPath = (w: { exhibitId: string; siteId: string }) => `/content/files/ls?exhibitId=${w.exhibitId}&siteId=${w.siteId}`;
  const deletePath = (w: { exhibitId: string; siteId: string }, fileName: string) =>
    `/content/files/?siteId=${w.siteId}&exhibitId=${w.exhibitId}&fileName=${encodeURIComponent(fileName)}`;
  const names = async (w: { exhibitId: string; siteId: string }) => (await admin.get(lsPath(w))).body.files.map((f: { name: string }) => f.name);
  const createToken = async (exhibitId: string) => (await admin.post('/auth/exhibit', { name: 'sdk', exhibitId })).body.token as string;

  describe('permissions', () => {
    it('lets a viewer list and download, but not upload or delete (403)', async () => {
      const viewer = await userWith(server, ['organization', world.org.id, 'VIEWER']);
      expect((await viewer.get(lsPath(where))).status).toBe(200);
      const got = await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'), {}, viewer);
      expect([got.status, got.body.toString()]).toEqual([200, 'intro bytes']);
      expect((await upload(viewer, where, [{ name: 'x.txt', content: 'x' }])).status).toBe(403);
      expect((await viewer.delete(deletePath(where, 'intro.mp4'))).status).toBe(403);
      expect(await names(where)).toEqual(['intro.mp4']);
    });

    it('lets a developer upload and delete', async () => {
      const developer = await userWith(server, ['site', world.siteA.id, 'DEVELOPER']);
      expect((await upload(developer, where, [{ name: 'dev.txt', content: 'd' }])).status).toBe(200);
      expect((await developer.delete(deletePath(where, 'dev.txt'))).status).toBe(200);
    });

    it("answers 404 to another organization's user, whatever the call", async () => {
      const outsider = world.outsider;
      expect((await outsider.get(lsPath(where))).status).toBe(404);
      expect((await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'), {}, outsider)).status).toBe(404);
      expect((await upload(outsider, where, [{ name: 'x.txt', content: 'x' }])).status).toBe(404);
      expect((await outsider.delete(deletePath(where, 'intro.mp4'))).status).toBe(404);
    });

    it('answers 401 without a session or credentials', async () => {
      const anonymous = server.client();
      expect((await anonymous.get(lsPath(where))).status).toBe(401);
      expect((await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'))).status).toBe(401);
      expect((await upload(anonymous, where, [{ name: 'x.txt', content: 'x' }])).status).toBe(401);
      expect((await anonymous.delete(deletePath(where, 'intro.mp4'))).status).toBe(401);
    });

    it('answers 404 when the exhibit is not in the site the call names', async () => {
      const elsewhere = { exhibitId: where.exhibitId, siteId: world.siteB.id };
      expect((await admin.get(lsPath(elsewhere))).status).toBe(404);
      expect((await upload(admin, elsewhere, [{ name: 'x.txt', content: 'x' }])).status).toBe(404);
      expect((await admin.delete(deletePath(elsewhere, 'intro.mp4'))).status).toBe(404);
      expect(await names(where)).toEqual(['intro.mp4']);
    });
  });

  describe('file names', () => {
    it.each([
      ['[ORG] logo.png', ORG_PREFIX_MESSAGE],
      ['dir/file.txt', 'may not contain "/"'],
      ['dir\\file.txt', 'may not contain "/"'],
      ['a..b.txt', 'may not contain ".."'],
      ['bell\u0007.txt', 'control characters'],
      [' padded.txt', 'begin or end with a space'],
      [`${'é'.repeat(128)}.txt`, 'longer than 255 bytes'],
    ])('refuses %j with a 400 and stores nothing', async (name, message) => {
      const res = await upload(admin, where, [{ name, content: 'refused' }]);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      expect(await names(where)).toEqual(['intro.mp4']);
    });

    it('refuses a whole selection when one name is refused, wherever it is, and keeps nothing of it', async () => {
      const before = await store.objectKeys(`files/${where.exhibitId}/`);
      for (const order of [
        ['good.txt', '[ORG]bad.txt'],
        ['[ORG]bad.txt', 'good.txt'],
      ]) {
        const res = await upload(admin, where, order.map((name) => ({ name, content: `content of ${name}` })));
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(ORG_PREFIX_MESSAGE);
      }
      expect(await names(where)).toEqual(['intro.mp4']);
      expect(await store.objectKeys(`files/${where.exhibitId}/`)).toEqual(before);
    });

    it('refuses files sent in another form field, and the same name twice in one selection', async () => {
      expect((await upload(admin, where, [{ name: 'x.txt', content: 'x' }], 'document')).body.message).toContain('form field "file"');
      const twice = await upload(admin, where, [
        { name: 'x.txt', content: 'x' },
        { name: 'x.txt', content: 'y' },
      ]);
      expect([twice.status, twice.body.message]).toEqual([400, 'The file "x.txt" is selected twice']);
      expect(await names(where)).toEqual(['intro.mp4']);
    });
  });

  describe('the size limit', () => {
    let small: TestServer;
    let smallStore: TestStore;
    let smallAdmin: TestClient;

    beforeAll(async () => {
      smallStore = await setup.start();
      small = await startTestServer({ ...smallStore.env, MAX_FILE_BYTES: '1000' });
      smallAdmin = (await small.signUp({ isPlatformAdmin: true })).client;
    });
    afterAll(async () => {
      await small?.stop();
      await smallStore?.close();
    });

    it('takes a file of exactly the limit and refuses a larger one with 413, keeping nothing of its selection', async () => {
      const smallWorld = await createWorld(small);
      const at = { exhibitId: smallWorld.exhibit.id, siteId: smallWorld.siteA.id };
      expect((await upload(smallAdmin, at, [{ name: 'fits.bin', content: Buffer.alloc(1000, 1) }])).status).toBe(200);
      const res = await upload(smallAdmin, at, [
        { name: 'fine.bin', content: Buffer.alloc(10, 2) },
        { name: 'big.bin', content: Buffer.alloc(5000, 3) },
      ]);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PayloadTooLarge');
      expect(res.body.message).toBe('The file is larger than the limit of 1000 bytes.');
      const list = (await smallAdmin.get(lsPath(at))).body.files.map((f: { name: string }) => f.name);
      expect(list).toEqual(['fits.bin']);
      expect(await smallStore.objectKeys(`files/${at.exhibitId}/`)).toHaveLength(1);
    });
  });

  describe('followers', () => {
    it("list and download their leader's files, refuse uploads and deletes, and get the leader's changes", async () => {
      const follower = await createExhibit(server.deps.db, world.siteA.id, 'Follower', { leaderId: where.exhibitId });
      const at = { exhibitId: follower.id, siteId: world.siteA.id };
      expect(await names(at)).toEqual(await names(where));
      const got = await download(downloadUrl(server.url, follower.id, 'intro.mp4'), {}, admin);
      expect(got.body.toString()).toBe('intro bytes');

      const refusedUpload = await upload(admin, at, [{ name: 'mine.txt', content: 'm' }]);
      expect([refusedUpload.status, refusedUpload.body.message]).toEqual([409, "This exhibit uses its leader's files: upload and delete files on the leader."]);
      expect((await admin.delete(deletePath(at, 'intro.mp4'))).status).toBe(409);

      const sdk = await openExhibitSocket(server, admin, follower.id);
      sdk.send({ type: 'manifest', requestId: 'f', manifest: { settings: [{ id: 'loop', type: 'FileSelection', display: 'Loop' }] } });
      const first = await sdk.waitFor((m) => m.type === 'files.changed');
      expect(first.type === 'files.changed' && first.files.map((f) => f.name)).toEqual(['intro.mp4']);
      sdk.messages.length = 0;
      const events = await eventsDuring(server, 'exhibit', follower.id, async () => {
        expect((await upload(admin, where, [{ name: 'shared.txt', content: 's' }])).status).toBe(200);
      });
      expect(events).toContainEqual({ type: 'exhibit.fileUploaded', exhibitId: follower.id, fileName: 'shared.txt' });
      const changed = await sdk.waitFor((m) => m.type === 'files.changed');
      expect(changed.type === 'files.changed' && changed.files.map((f) => f.name)).toEqual(['intro.mp4', 'shared.txt']);

      // The leader's setting (copied to the follower) names the file: both are conflicts of its delete.
      const leaderSdk = await openExhibitSocket(server, admin, where.exhibitId);
      leaderSdk.send({ type: 'manifest', requestId: 'l', manifest: { settings: [{ id: 'loop', type: 'FileSelection', display: 'Loop' }] } });
      await leaderSdk.waitFor((m) => m.type === 'files.changed');
      expect((await admin.post(`/exhibit-management/exhibit/${where.exhibitId}/setting/loop`, { value: 'shared.txt' })).status).toBe(200);
      await sdk.waitFor((m) => m.type === 'setting.changed' && m.settingId === 'loop' && m.value === 'shared.txt');
      const refused = await admin.delete(deletePath(where, 'shared.txt'));
      expect(refused.status).toBe(409);
      expect(refused.body.details.settings).toEqual(
        expect.arrayContaining([
          { exhibitId: where.exhibitId, exhibitName: 'Pendulum', settingId: 'loop', display: 'Loop', listName: null },
          { exhibitId: follower.id, exhibitName: 'Follower', settingId: 'loop', display: 'Loop', listName: null },
        ]),
      );
      leaderSdk.close();
      sdk.messages.length = 0;
      expect((await admin.delete(`${deletePath(where, 'shared.txt')}&confirm=true`)).status).toBe(200);
      expect(await sdk.waitFor((m) => m.type === 'setting.changed' && m.settingId === 'loop')).toMatchObject({ value: '' });
      sdk.close();
    });

    it('sends an exhibit the new list when it starts or stops following a leader', async () => {
      const loner = await createExhibit(server.deps.db, world.siteA.id, 'Loner');
      expect((await upload(admin, { exhibitId: loner.id, siteId: world.siteA.id }, [{ name: 'own.txt', content: 'o' }])).status).toBe(200);
      const sdk = await openExhibitSocket(server, admin, loner.id);
      sdk.send({ type: 'manifest', requestId: 'n', manifest: {} });
      await sdk.waitFor((m) => m.type === 'files.changed');
      const namesSent = async () => {
        const message = await sdk.waitFor((m) => m.type === 'files.changed');
        sdk.messages.length = 0;
        return message.type === 'files.changed' ? message.files.map((f) => f.name) : null;
      };
      sdk.messages.length = 0;
      expect((await admin.put(`/exhibit-management/exhibit/${loner.id}`, { leaderId: where.exhibitId })).status).toBe(200);
      expect(await namesSent()).toEqual(await names(where));
      expect((await admin.put(`/exhibit-management/exhibit/${loner.id}`, { leaderId: null })).status).toBe(200);
      expect(await namesSent()).toEqual(['own.txt']);
      sdk.close();
    });
  });

  describe("the exhibit's own download (Basic auth)", () => {
    it('reads its own files (its leader files as a follower) and nothing else', async () => {
      const token = await createToken(where.exhibitId);
      const own = await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'), basicAuth(where.exhibitId, token));
      expect([own.status, own.body.toString()]).toEqual([200, 'intro bytes']);
      expect((await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'), basicAuth(where.exhibitId, 'wrong'))).status).toBe(401);

      const other = await createExhibit(server.deps.db, world.siteA.id, 'Other');
      expect((await upload(admin, { exhibitId: other.id, siteId: world.siteA.id }, [{ name: 'secret.txt', content: 's' }])).status).toBe(200);
      expect((await download(downloadUrl(server.url, other.id, 'secret.txt'), basicAuth(where.exhibitId, token))).status).toBe(404);
      expect((await download(downloadUrl(server.url, other.id, 'secret.txt'), basicAuth(other.id, token))).status).toBe(401);

      const follower = await createExhibit(server.deps.db, world.siteA.id, 'Second follower', { leaderId: where.exhibitId });
      const followerToken = await createToken(follower.id);
      const viaFollower = await download(downloadUrl(server.url, follower.id, 'intro.mp4'), basicAuth(follower.id, followerToken));
      expect([viaFollower.status, viaFollower.body.toString()]).toEqual([200, 'intro bytes']);
      expect((await download(downloadUrl(server.url, where.exhibitId, 'intro.mp4'), basicAuth(follower.id, followerToken))).status).toBe(404);
    });
  });

  describe('deleting an exhibit', () => {
    it('removes its stored files', async () => {
      const doomed = await createExhibit(server.deps.db, world.siteA.id, 'Doomed');
      const at = { exhibitId: doomed.id, siteId: world.siteA.id };
      expect((await upload(admin, at, [{ name: 'a.txt', content: 'a' }, { name: 'b.txt', content: 'b' }])).status).toBe(200);
      expect(await store.objectKeys(`files/${doomed.id}/`)).toHaveLength(2);
      expect((await admin.delete(`/exhibit-management/exhibit/${doomed.id}`)).status).toBe(200);
      expect(await store.objectKeys(`files/${doomed.id}/`)).toEqual([]);
    });
  });

  describe('deleting a site, an organization or a board', () => {
    /** A board with one firmware file stored. */
    async function boardWithFirmware(siteId: string): Promise<string> {
      const board = await createHardware(server.deps.db, siteId);
      const form = new FormData();
      form.append('file', new Blob(['firmware bytes']), 'board.gbm0');
      const res = await admin.request('POST', `/content/firmware/upload?hardwareId=${board.id}&siteId=${siteId}`, form);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await store.objectKeys(`firmware/${board.id}/`)).toHaveLength(1);
      return board.id;
    }

    it('removes the stored files of the exhibits and the firmware of the boards it held', async () => {
      const org = await createOrganization(server.deps.db);
      const [siteA, siteB] = [await createSite(server.deps.db, org.id), await createSite(server.deps.db, org.id)];
      const inA = await createExhibit(server.deps.db, siteA.id);
      const inB = await createExhibit(server.deps.db, siteB.id);
      for (const [exhibit, site] of [[inA, siteA], [inB, siteB]] as const) {
        expect((await upload(admin, { exhibitId: exhibit.id, siteId: site.id }, [{ name: 'a.txt', content: 'a' }])).status).toBe(200);
      }
      const boardA = await boardWithFirmware(siteA.id);
      const boardB = await boardWithFirmware(siteB.id);

      expect((await admin.delete(`/org-management/site/${siteA.id}`)).status).toBe(200);
      expect(await store.objectKeys(`files/${inA.id}/`)).toEqual([]);
      expect(await store.objectKeys(`firmware/${boardA}/`)).toEqual([]);
      // The other site's are untouched until its organization goes.
      expect(await store.objectKeys(`files/${inB.id}/`)).toHaveLength(1);
      expect(await store.objectKeys(`firmware/${boardB}/`)).toHaveLength(1);
      expect((await admin.delete(`/org-management/organization/${org.id}`)).status).toBe(200);
      expect(await store.objectKeys(`files/${inB.id}/`)).toEqual([]);
      expect(await store.objectKeys(`firmware/${boardB}/`)).toEqual([]);
    });

    it("removes a deleted board's firmware", async () => {
      const board = await boardWithFirmware(world.siteA.id);
      expect((await admin.delete(`/hardware-mgmt/hardware/${board}`)).status).toBe(200);
      expect(await store.objectKeys(`firmware/${board}/`)).toEqual([]);
    });
  });
});
