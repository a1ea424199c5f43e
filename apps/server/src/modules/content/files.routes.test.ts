import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayMessage } from '@plinth/shared';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createOrganization, createSite, eventsDuring } from '../../test/factories.js';
import { abortUploadMidway, download, downloadUrl, sha256, startLocalStore, startS3Store, upload, type TestStore } from '../../test/files-kit.js';
import { waitUntil } from '../../test/hardware-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { deleteFileWithResets } from './files.repository.js';

/**
 * The files calls against each file store: upload, replace, list, download (whole, a range,
 * 304), delete, conflicts with FileSelection settings and their confirmation, an aborted upload.
 */
const STORES: { name: string; start: () => Promise<TestStore> }[] = [
  { name: 'local disk', start: startLocalStore },
  { name: 'S3 (s3rver)', start: startS3Store },
];

/** A manifest with a plain FileSelection setting (default 'fallback.mp4') and a list whose items choose a clip. */
const MANIFEST = {
  settings: [
    { id: 'video', type: 'FileSelection', display: 'Video', default: 'fallback.mp4' },
    { id: 'title', type: 'TextInput', display: 'Title' },
  ],
  settingLists: [
    {
      id: 'playlist',
      listDisplay: 'Playlist',
      settings: [{ id: 'clip', type: 'FileSelection', display: 'Clip' }],
      defaultItems: [{ listName: 'Intro', values: { clip: 'a.mp4' } }, { listName: 'Outro', values: { clip: 'b.mp4' } }],
    },
  ],
};

const filesOf = (message: GatewayMessage) => (message.type === 'files.changed' ? message.files.map((f) => [f.name, f.sha256]) : null);

describe.each(STORES)('exhibit files on the $name store', (setup) => {
  let store: TestStore;
  let server: TestServer;
  let admin: TestClient;
  let where: { exhibitId: string; siteId: string };
  let sdk: ExhibitSocket;

  beforeAll(async () => {
    store = await setup.start();
    server = await startTestServer(store.env);
    admin = (await server.signUp({ isPlatformAdmin: true })).client;
    const site = await createSite(server.deps.db, (await createOrganization(server.deps.db)).id);
    const exhibit = await createExhibit(server.deps.db, site.id);
    where = { exhibitId: exhibit.id, siteId: site.id };
    sdk = await openExhibitSocket(server, admin, exhibit.id);
    sdk.send({ type: 'manifest', requestId: 'm', manifest: MANIFEST });
    await sdk.waitFor((m) => m.type === 'files.changed');
  });
  afterAll(async () => {
    sdk?.close();
    await server?.stop();
    await store?.close();
  });

  const listed = async () => (await admin.get(`/content/files/ls?exhibitId=${where.exhibitId}&siteId=${where.siteId}`)).body;
  const url = (name: string) => downloadUrl(server.url, where.exhibitId, name);
  const prefix = () => `files/${where.exhibitId}/`;

  it('sends the exhibit its (empty) file list right after exhibit.synced when it connects', () => {
    const synced = sdk.messages.findIndex((m) => m.type === 'exhibit.synced');
    const files = sdk.messages.findIndex((m) => m.type === 'files.changed');
    expect(synced).toBeGreaterThanOrEqual(0);
    expect(files).toBeGreaterThan(synced);
    expect(sdk.messages[files]).toEqual({ type: 'files.changed', files: [] });
  });

  it('uploads two files: stored, listed, announced to consoles and sent to the exhibit', async () => {
    sdk.messages.length = 0;
    let res;
    const events = await eventsDuring(server, 'exhibit', where.exhibitId, async () => {
      res = await upload(admin, where, [
        { name: 'a.mp4', content: 'first version of a', type: 'video/mp4' },
        { name: 'notes é.txt', content: 'hello notes', type: 'text/html' },
      ]);
    });
    expect(res!.status).toBe(200);
    expect(res!.body.files.map((f: { name: string; size: number; sha256: string; organizational: boolean }) => [f.name, f.size, f.sha256, f.organizational])).toEqual([
      ['a.mp4', 18, sha256('first version of a'), false],
      ['notes é.txt', 11, sha256('hello notes'), false],
    ]);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'exhibit.fileUploaded', exhibitId: where.exhibitId, fileName: 'a.mp4' },
        { type: 'exhibit.fileUploaded', exhibitId: where.exhibitId, fileName: 'notes é.txt' },
      ]),
    );
    const message = await sdk.waitFor((m) => m.type === 'files.changed');
    expect(filesOf(message)).toEqual([
      ['a.mp4', sha256('first version of a')],
      ['notes é.txt', sha256('hello notes')],
    ]);
    const list = await listed();
    expect(list.errors).toEqual([]);
    expect(list.files.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([
      ['a.mp4', 18],
      ['notes é.txt', 11],
    ]);
    expect(Date.parse(list.files[0].updated_at)).not.toBeNaN();
    expect(await store.objectKeys(prefix())).toHaveLength(2);
  });

  it('replaces a file of the same name with new content and removes the old object', async () => {
    const before = await store.objectKeys(prefix());
    const res = await upload(admin, where, [{ name: 'a.mp4', content: 'second, longer version of a', type: 'video/mp4' }]);
    expect(res.status).toBe(200);
    const list = await listed();
    expect(list.files.map((f: { name: string; sha256: string }) => [f.name, f.sha256])).toEqual([
      ['a.mp4', sha256('second, longer version of a')],
      ['notes é.txt', sha256('hello notes')],
    ]);
    const after = await store.objectKeys(prefix());
    expect(after).toHaveLength(2);
    expect(after.filter((k) => !before.includes(k))).toHaveLength(1);
    const got = await download(url('a.mp4'), {}, admin);
    expect(got.body.toString()).toBe('second, longer version of a');
  });

  it('downloads a whole file with its validators, a byte range, a 304, and refuses a range past the end', async () => {
    const whole = await download(url('notes é.txt'), {}, admin);
    expect(whole.status).toBe(200);
    expect(whole.body.toString()).toBe('hello notes');
    const etag = `"${sha256('hello notes')}"`;
    expect(whole.headers.get('etag')).toBe(etag);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe('11');
    expect(Date.parse(whole.headers.get('last-modified')!)).not.toBeNaN();
    // text/html is not a type the server serves as sent.
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="notes _.txt"; filename*=UTF-8''notes%20%C3%A9.txt`);

    const range = await download(url('notes é.txt'), { range: 'bytes=6-9' }, admin);
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe('note');
    expect(range.headers.get('content-range')).toBe('bytes 6-9/11');
    const suffix = await download(url('notes é.txt'), { range: 'bytes=-5' }, admin);
    expect([suffix.status, suffix.body.toString()]).toEqual([206, 'notes']);

    const cached = await download(url('notes é.txt'), { 'if-none-match': etag }, admin);
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const changed = await download(url('notes é.txt'), { 'if-none-match': '"other"' }, admin);
    expect(changed.status).toBe(200);

    const past = await download(url('notes é.txt'), { range: 'bytes=11-' }, admin);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */11');

    const head = await download(url('notes é.txt'), {}, admin, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.headers.get('etag'), head.body.length]).toEqual([200, '11', etag, 0]);

    const video = await download(url('a.mp4'), {}, admin);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect((await download(url('missing.mp4'), {}, admin)).status).toBe(404);
  });

  it('refuses to delete a file that settings use (409 listing them), then with confirm deletes it and resets them', async () => {
    await upload(admin, where, [{ name: 'b.mp4', content: 'bbb', type: 'video/mp4' }]);
    const save = await admin.post(`/exhibit-management/exhibit/${where.exhibitId}/setting/video`, { value: 'a.mp4' });
    expect(save.status).toBe(200);
    const path = `/content/files/?siteId=${where.siteId}&exhibitId=${where.exhibitId}&fileName=a.mp4`;

    const refused = await admin.delete(path);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('Conflict');
    expect(refused.body.details.events).toEqual([]);
    expect(refused.body.details.settings).toEqual(
      expect.arrayContaining([
        { exhibitId: where.exhibitId, exhibitName: expect.any(String), settingId: 'video', display: 'Video', listName: null },
        { exhibitId: where.exhibitId, exhibitName: expect.any(String), settingId: 'clip', display: 'Clip', listName: 'Intro' },
      ]),
    );
    expect(refused.body.details.settings).toHaveLength(2);
    expect((await listed()).files.map((f: { name: string }) => f.name)).toContain('a.mp4');

    sdk.messages.length = 0;
    const confirmed = await admin.delete(`${path}&confirm=true`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.ok).toBe(true);
    expect(confirmed.body.reset.settings).toHaveLength(2);

    // The exhibit gets the reset values like any save, then the new file list.
    expect(await sdk.waitFor((m) => m.type === 'setting.changed' && m.settingId === 'video')).toMatchObject({ value: 'fallback.mp4' });
    const list = await sdk.waitFor((m) => m.type === 'settingList.changed' && m.listId === 'playlist');
    expect(list.type === 'settingList.changed' && list.items.map((i) => [i.listName, i.values.clip])).toEqual([
      ['Intro', ''],
      ['Outro', 'b.mp4'],
    ]);
    const files = await sdk.waitFor((m) => m.type === 'files.changed');
    expect(filesOf(files)!.map(([name]) => name)).toEqual(['b.mp4', 'notes é.txt']);

    const manifest = (await admin.get(`/exhibit-management/exhibit/${where.exhibitId}/manifest`)).body.manifest;
    expect(manifest.settings.find((s: { manifestId: string }) => s.manifestId === 'video').value).toBe('fallback.mp4');
    expect((await listed()).files.map((f: { name: string }) => f.name)).toEqual(['b.mp4', 'notes é.txt']);
    expect(await store.objectKeys(prefix())).toHaveLength(2);
    expect((await download(url('a.mp4'), {}, admin)).status).toBe(404);
  });

  it('rolls a delete back when, inside its transaction, a setting names the file that was not confirmed', async () => {
    // What a setting saved between the conflict check and the delete meets: nothing changes.
    const outcome = await deleteFileWithResets(server.deps.db, {
      exhibitId: where.exhibitId,
      fileName: 'b.mp4',
      exhibitIds: [where.exhibitId],
      resetUses: false,
      resetValue: () => '',
    });
    expect(outcome && 'blocked' in outcome && outcome.blocked.map((u) => [u.settingId, u.listName])).toEqual([['clip', 'Outro']]);
    expect((await listed()).files.map((f: { name: string }) => f.name)).toContain('b.mp4');
    const manifest = (await admin.get(`/exhibit-management/exhibit/${where.exhibitId}/manifest`)).body.manifest;
    expect(JSON.stringify(manifest.settingLists)).toContain('b.mp4');
  });

  it('deletes an unused file at once, announcing it', async () => {
    const events = await eventsDuring(server, 'exhibit', where.exhibitId, async () => {
      const res = await admin.delete(`/content/files/?siteId=${where.siteId}&exhibitId=${where.exhibitId}&fileName=${encodeURIComponent('notes é.txt')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, reset: { settings: [], events: [] } });
    });
    expect(events).toContainEqual({ type: 'exhibit.fileDeleted', exhibitId: where.exhibitId, fileName: 'notes é.txt' });
    expect((await listed()).files.map((f: { name: string }) => f.name)).toEqual(['b.mp4']);
    const again = await admin.delete(`/content/files/?siteId=${where.siteId}&exhibitId=${where.exhibitId}&fileName=${encodeURIComponent('notes é.txt')}`);
    expect(again.status).toBe(404);
  });

  it('keeps nothing of an upload the client abandons midway, and the previous version stays in use', async () => {
    const before = await store.objectKeys(prefix());
    await abortUploadMidway(admin, {
      ...where,
      complete: { name: 'b.mp4', content: 'a new b that never lands' },
      cut: 'c.mp4',
      stored: async () => (await store.objectKeys(prefix())).filter((k) => !k.endsWith('.partial')).length > before.length,
    });
    await waitUntil(async () => (await store.objectKeys(prefix())).length === before.length, 'the abandoned objects removed');
    expect((await store.objectKeys(prefix())).sort()).toEqual([...before].sort());
    const list = await listed();
    expect(list.files.map((f: { name: string; sha256: string }) => [f.name, f.sha256])).toEqual([['b.mp4', sha256('bbb')]]);
    expect((await download(url('b.mp4'), {}, admin)).body.toString()).toBe('bbb');
  });
});
