import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '@plinth/shared';
import { exhibitConnections, logEntries, reportEvents } from '../../db/schema.js';
import { createExhibit, createOrganization, createSite, signUpWith } from '../../test/factories.js';
import { mailsTo, setToggles } from '../../test/notification-kit.js';
import { sha256, upload } from '../../test/files-kit.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { freeGumbandBasePort, GUMBAND_EXAMPLE, startGumbandExhibit, type GumbandProcess } from '../../test/gumband-kit.js';

/**
 * The published `@deeplocal/gumband-node-sdk` (examples/gumband-exhibit, unchanged but for its
 * endpoint options) in its own process against a real Plinth in compatibility mode.
 */

let server: TestServer;
let admin: TestClient;
let siteId: string;
let basePort: number;
const running: GumbandProcess[] = [];
const wait = { timeout: 20_000, interval: 50 };

beforeAll(async () => {
  basePort = await freeGumbandBasePort();
  server = await startTestServer({ GUMBAND_COMPAT: '1', GUMBAND_COMPAT_BASE_PORT: String(basePort), MAIL_OUTBOX_POLL_MS: '100' });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const org = await createOrganization(server.deps.db);
  siteId = (await createSite(server.deps.db, org.id)).id;
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await server?.stop();
});

async function newExhibitRecord(): Promise<{ id: string; token: string }> {
  const exhibit = await createExhibit(server.deps.db, siteId);
  const res = await admin.post('/auth/exhibit', { name: 'gumband', exhibitId: exhibit.id });
  expect(res.status).toBe(200);
  return { id: exhibit.id, token: res.body.token };
}

function run(options: { exhibitId: string; token: string; manifest?: string }): GumbandProcess {
  const exhibit = startGumbandExhibit({ ...options, basePort });
  running.push(exhibit);
  return exhibit;
}

/** A console socket of the admin subscribed to the exhibit; `messages()` is everything it got so far. */
async function consoleSocket(exhibitId: string) {
  const socket = await SocketClient.open(server.url, { cookie: admin.cookieHeader });
  socket.send({ type: 'subscribe', exhibitIds: [exhibitId] });
  await socket.nextOfType('subscribed');
  const seen: ServerMessage[] = [];
  const messages = async () => {
    seen.push(...(await socket.drain()));
    return seen;
  };
  return { socket, messages };
}

const linesOf = (exhibit: GumbandProcess, event: string): any[] => exhibit.lines.filter((l) => l.event === event).map((l) => l.payload);

describe('the published Gumband SDK against Plinth in compatibility mode', () => {
  it('refuses a wrong token: the SDK emits its authentication error', async () => {
    const record = await newExhibitRecord();
    const exhibit = run({ exhibitId: record.id, token: 'not-the-token' });
    await vi.waitFor(() => expect(linesOf(exhibit, 'error').join(' ')).toMatch(/Authentication error.*403/), wait);
    expect(linesOf(exhibit, 'ready')).toEqual([]);
    await exhibit.stop();
  });

  it('authenticates, sends its manifest, goes online, takes controls, settings and op modes, reports statuses, logs and events', async () => {
    const record = await newExhibitRecord();
    const live = await consoleSocket(record.id);
    const exhibit = run({ exhibitId: record.id, token: record.token });

    await vi.waitFor(() => expect(linesOf(exhibit, 'ready')).toHaveLength(1), wait);
    const ready = linesOf(exhibit, 'ready')[0];
    expect(ready.settings).toEqual(['kiosk_name', 'idle_timeout_secs', 'prod_api', 'opening_day', 'attract_loop', 'audio/muted', 'audio/accent']);
    expect(ready.muted).toBe(false);
    expect(ready.opMode).toBe(false);
    await vi.waitFor(() => expect(linesOf(exhibit, 'online')).toHaveLength(1), wait);

    // Online in the console's socket, with a connection history row, as for a Plinth SDK exhibit.
    await vi.waitFor(async () => {
      expect(await live.messages()).toContainEqual(expect.objectContaining({ type: 'exhibit.presenceChanged', exhibitId: record.id, online: true }));
    }, wait);
    const history = await server.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
    expect(history.some((row) => row.online)).toBe(true);

    // The manifest arrived converted: a control group, a setting group and a setting list.
    const manifest = (await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body;
    expect(manifest.online).toBe(true);
    expect(manifest.manifest.controls.find((c: any) => c.manifestId === 'volume').items.map((i: any) => i.id)).toEqual(['up', 'down']);
    expect(manifest.manifest.settingGroups[0]).toMatchObject({ manifestId: 'audio' });
    expect(manifest.manifest.settingGroups[0].settings.map((s: any) => [s.manifestId, s.type])).toEqual([['muted', 'Toggle'], ['accent', 'TextInput']]);
    expect(manifest.manifest.settingLists[0]).toMatchObject({ manifestId: 'scenes' });
    expect(manifest.manifest.settings.find((s: any) => s.manifestId === 'idle_timeout_secs').default).toBe(60);

    // Statuses the exhibit set, seen live by the console.
    await vi.waitFor(async () => {
      const messages = await live.messages();
      expect(messages).toContainEqual(expect.objectContaining({ type: 'exhibit.statusChanged', statusId: 'ip_address', value: '10.0.0.7' }));
      expect(messages).toContainEqual(expect.objectContaining({ type: 'exhibit.statusChanged', statusId: 'count', value: 3 }));
      // A status group's child: `projector/lamp_hours` for the SDK, an Integer status of Plinth.
      expect(messages).toContainEqual(expect.objectContaining({ type: 'exhibit.statusChanged', statusId: 'projector~lamp_hours', value: 1200 }));
    }, wait);

    // A control fired through Plinth's API: a single one and a group's button.
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/control/reload`, {})).status).toBe(200);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/control/volume?itemId=up`, {})).status).toBe(200);
    await vi.waitFor(() => expect(linesOf(exhibit, 'control').map((c) => c.id)).toEqual(['reload', 'volume/up']), wait);

    // Settings saved in Plinth: received with Gumband's names and types, then applied.
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/muted`, { value: true })).status).toBe(200);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/kiosk_name`, { value: 'Lobby' })).status).toBe(200);
    await vi.waitFor(() => {
      expect(linesOf(exhibit, 'setting')).toContainEqual(expect.objectContaining({ id: 'audio/muted', value: true }));
      expect(linesOf(exhibit, 'setting')).toContainEqual(expect.objectContaining({ id: 'kiosk_name', value: 'Lobby' }));
    }, wait);
    await vi.waitFor(async () => {
      expect(await live.messages()).toContainEqual(expect.objectContaining({ type: 'exhibit.settingChanged', settingId: 'muted', applied: true }));
    }, wait);

    // A setting list changed in Plinth: the whole list, with Gumband's name and text values.
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/settinglist/scenes`, { listName: 'Intro' })).status).toBe(200);
    await vi.waitFor(() => {
      expect(linesOf(exhibit, 'settingList')).toContainEqual({
        id: 'scenes',
        manifestId: 'scenes',
        settinglistitems: [expect.objectContaining({ listName: 'Intro', values: expect.objectContaining({ duration: '10' }) })],
      });
    }, wait);

    // The op mode switched in Plinth.
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    await vi.waitFor(() => expect(linesOf(exhibit, 'opMode')).toEqual([{ value: true }]), wait);

    // Files uploaded and deleted in Plinth while it runs: Gumband's FILE_UPLOADED and FILE_DELETED.
    expect((await upload(admin, { exhibitId: record.id, siteId }, [{ name: 'intro.mp4', content: 'video' }])).status).toBe(200);
    await vi.waitFor(() => expect(linesOf(exhibit, 'fileUploaded')).toEqual([{ fileName: 'intro.mp4' }]), wait);
    const removed = await admin.delete(`/content/files/?siteId=${siteId}&exhibitId=${record.id}&fileName=intro.mp4&confirm=true`);
    expect(removed.status).toBe(200);
    await vi.waitFor(() => expect(linesOf(exhibit, 'fileDeleted')).toEqual([{ fileName: 'intro.mp4' }]), wait);

    // Its log line and its report event, stored for the exhibit.
    await vi.waitFor(async () => {
      await server.deps.logs.flush();
      const logs = await server.deps.db.select().from(logEntries).where(eq(logEntries.deviceId, record.id));
      expect(logs.map((l) => l.message)).toContain('Hello from a Gumband exhibit');
      const events = await server.deps.db.select().from(reportEvents).where(eq(reportEvents.deviceId, record.id));
      expect(events).toContainEqual(expect.objectContaining({ name: 'visit', value: 'kids' }));
    }, wait);

    // Locked, a changed manifest is refused (406) and the stored one stays.
    const changed = JSON.parse(fs.readFileSync(path.join(path.dirname(GUMBAND_EXAMPLE), 'manifest.json'), 'utf8'));
    changed.manifest.settings.push({ id: 'brand_new', type: 'TextInput', display: 'New' });
    const changedPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gumband-')), 'manifest.json');
    fs.writeFileSync(changedPath, JSON.stringify(changed));
    exhibit.send(`lock ${changedPath}`);
    await vi.waitFor(() => expect(linesOf(exhibit, 'manifestSent')).toHaveLength(1), wait);
    expect(linesOf(exhibit, 'manifestSent')[0].settings).not.toContain('brand_new');
    // The SDK's own message for the 406 (its log goes to stdout).
    expect(exhibit.output.join('\n')).toContain('Manifest was not set because the exhibit manifest is locked');
    const after = (await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body;
    expect(after.manifestLocked).toBe(true);
    expect(after.manifest.settings.map((s: any) => s.manifestId)).not.toContain('brand_new');

    live.socket.close();
    await exhibit.stop();
    await vi.waitFor(async () => {
      const rows = await server.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
      expect(rows.some((row) => !row.online)).toBe(true);
    }, wait);
  });

  it('delivers settings and lists changed while the exhibit was away when it comes back, and nothing else', async () => {
    const record = await newExhibitRecord();
    const first = run({ exhibitId: record.id, token: record.token });
    await vi.waitFor(() => expect(linesOf(first, 'ready')).toHaveLength(1), wait);
    await first.stop();
    await vi.waitFor(async () => expect((await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.online).toBe(false), wait);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/idle_timeout_secs`, { value: 90 })).status).toBe(200);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/settinglist/scenes`, { listName: 'Finale' })).status).toBe(200);

    const again = run({ exhibitId: record.id, token: record.token });
    await vi.waitFor(() => {
      expect(linesOf(again, 'setting')).toContainEqual(expect.objectContaining({ id: 'idle_timeout_secs', value: '90' }));
      expect(linesOf(again, 'settingList')).toEqual([expect.objectContaining({ id: 'scenes', settinglistitems: [expect.objectContaining({ listName: 'Finale' })] })]);
    }, wait);
    expect(linesOf(again, 'setting').map((s) => s.id)).toEqual(['idle_timeout_secs']);
    await vi.waitFor(async () => {
      const manifest = (await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body;
      expect(manifest.manifest.settings.find((s: any) => s.manifestId === 'idle_timeout_secs')).toMatchObject({ value: 90, applied: true });
    }, wait);
    await again.stop();
  });
});

describe('a Gumband exhibit whose token is deleted', () => {
  it('is disconnected at once and stays out, as a Plinth SDK exhibit is', async () => {
    const record = await newExhibitRecord();
    const exhibit = run({ exhibitId: record.id, token: record.token });
    await vi.waitFor(() => expect(linesOf(exhibit, 'online')).toHaveLength(1), wait);
    const tokenId = (await admin.get(`/auth/exhibit/${record.id}`)).body.tokens[0].id;
    expect((await admin.delete(`/auth/exhibit/delete-token/${tokenId}`)).status).toBe(200);
    await vi.waitFor(async () => {
      const rows = await server.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
      expect(rows.some((row) => !row.online && row.reason === 'revoked')).toBe(true);
    }, wait);
    // The SDK reconnects with its cookie every 3 s; the cookie died with the token.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect((await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.online).toBe(false);
    await exhibit.stop();
  });
});

describe('the Gumband REST calls', () => {
  const url = (offset: number, rest: string) => `http://127.0.0.1:${basePort + offset}/api/v1${rest}`;

  async function signIn(exhibitId: string, token: string): Promise<{ status: number; cookie: string }> {
    const res = await fetch(url(0, '/auth/exhibit/authenticate'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ exhibitId, token }) });
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { status: res.status, cookie: setCookie.split(';')[0]! };
  }

  it('sets a long-lived HttpOnly exhibitToken cookie that authorizes its own exhibit only', async () => {
    const a = await newExhibitRecord();
    const b = await newExhibitRecord();
    expect((await signIn(a.id, b.token)).status).toBe(403);
    expect((await signIn('6', a.token)).status).toBe(403);
    const res = await fetch(url(0, '/auth/exhibit/authenticate'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ exhibitId: a.id, token: a.token }) });
    expect(await res.json()).toEqual({ response: 'success' });
    expect(res.headers.get('set-cookie')).toMatch(/^exhibitToken=v1\.[^;]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$/);
    const { cookie } = await signIn(a.id, a.token);

    const own = await fetch(url(6, `/exhibit-management/exhibit/${a.id}`), { headers: { cookie } });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ response: 'success', exhibit: { id: a.id, opMode: 'Off', manifestLocked: false } });
    const other = await fetch(url(6, `/exhibit-management/exhibit/${b.id}`), { headers: { cookie } });
    expect(other.status).toBe(403);
    expect((await fetch(url(6, `/exhibit-management/exhibit/${a.id}`))).status).toBe(403);
    const log = await fetch(url(7, '/logging/exhibit'), { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ exhibitId: b.id, type: 'info', message: 'x' }) });
    expect(log.status).toBe(403);
    // The cookie is a credential of the token: deleting the token ends it.
    const tokens = (await admin.get(`/auth/exhibit/${a.id}`)).body;
    const tokenId = tokens.tokens[0].id;
    expect((await admin.delete(`/auth/exhibit/delete-token/${tokenId}`)).status).toBe(200);
    expect((await fetch(url(6, `/exhibit-management/exhibit/${a.id}`), { headers: { cookie } })).status).toBe(403);
    const fresh = await newExhibitRecord();
    const freshCookie = (await signIn(fresh.id, fresh.token)).cookie;
    const bad = await fetch(url(7, '/logging/exhibit'), { method: 'POST', headers: { cookie: freshCookie, 'content-type': 'application/json' }, body: JSON.stringify({ exhibitId: fresh.id, type: 'loud', message: 'x' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ response: 'error', code: 'ValidationError' });
    // setManifest() without a file sends back the server's own copy: taken as no change.
    const copy = (await (await fetch(url(6, `/exhibit-management/exhibit/${fresh.id}/manifest`), { headers: { cookie: freshCookie } })).json()) as { manifest: unknown };
    const resent = await fetch(url(6, `/exhibit-management/exhibit/${fresh.id}/manifest`), { method: 'POST', headers: { cookie: freshCookie, 'content-type': 'application/json' }, body: JSON.stringify(copy.manifest) });
    expect(await resent.json()).toEqual({ response: 'success', changes: [] });
    const nul = await fetch(url(6, `/exhibit-management/exhibit/${fresh.id}/status/anything`), { method: 'POST', headers: { cookie: freshCookie, 'content-type': 'application/json' }, body: JSON.stringify({ value: 'a\u0000b' }) });
    expect(nul.status).toBe(400);
  });

  it("lists and streams the exhibit's files, answers its hardware and takes its notification", async () => {
    const record = await newExhibitRecord();
    expect((await upload(admin, { exhibitId: record.id, siteId }, [{ name: 'intro.mp4', content: 'video bytes' }])).status).toBe(200);
    const { cookie } = await signIn(record.id, record.token);

    const listed = (await (await fetch(url(8, `/content/files/ls?exhibitId=${record.id}`), { headers: { cookie } })).json()) as { files: unknown };
    expect(listed.files).toEqual([expect.objectContaining({ file: 'intro.mp4', hash: sha256('video bytes'), size: 11 })]);
    const file = await fetch(url(8, `/content/files?exhibitId=${record.id}&fileName=intro.mp4`), { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('video bytes');

    const hardware = await (await fetch(url(4, `/hardware-mgmt/hardware?exhibitId=${record.id}`), { headers: { cookie } })).json();
    expect(hardware).toEqual({ response: 'success', hardware: [] });
    // The exhibit's notification: in its log, and mailed to who takes its notifications (one a minute).
    const watcher = await signUpWith(server, ['exhibit', record.id, 'DEVELOPER']);
    await setToggles(watcher.client, record.id, { notify: true });
    for (const message of ['Lamp failing', 'Lamp failing again']) {
      const email = await fetch(url(10, '/notifications/email'), { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ exhibitId: record.id, type: 'notify', message }) });
      expect(await email.json()).toEqual({ response: 'success' });
    }
    await vi.waitFor(async () => {
      await server.deps.logs.flush();
      const logs = await server.deps.db.select().from(logEntries).where(eq(logEntries.deviceId, record.id));
      expect(logs.filter((l) => l.eventType === 'notification').map((l) => l.message)).toEqual(['Lamp failing', 'Lamp failing again']);
      expect(mailsTo(server, watcher.email).map((m) => m.subject)).toEqual([expect.stringContaining('a message from the exhibit')]);
    }, wait);
    expect(mailsTo(server, watcher.email)[0]!.text).toContain('Lamp failing');
  });
});
