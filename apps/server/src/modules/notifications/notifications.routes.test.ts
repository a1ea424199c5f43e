import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_TOGGLES } from '@plinth/shared';
import { createExhibit, createOrganization, createSite, eventsDuring, signUpWith, uniqueName, userWith } from '../../test/factories.js';
import { linksIn, mailsTo, outboxSettled, setToggles } from '../../test/notification-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** The Notifications tab's calls, who may use them, and the one-click unsubscribe link. */

let server: TestServer;
let admin: TestClient;
let adminEmail: string;
let organizationId: string;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer({ MAIL_OUTBOX_POLL_MS: '100' });
  const root = await server.signUp({ isPlatformAdmin: true });
  admin = root.client;
  adminEmail = root.email;
  organizationId = (await createOrganization(server.deps.db, uniqueName('Museum'))).id;
  siteId = (await createSite(server.deps.db, organizationId, 'North hall')).id;
});

afterAll(async () => {
  await server?.stop();
});

/** An exhibit with a MANAGER, a DEVELOPER and a VIEWER on it. */
async function exhibitWithUsers() {
  const exhibit = await createExhibit(server.deps.db, siteId, uniqueName('Pendulum'));
  const manager = await signUpWith(server, ['exhibit', exhibit.id, 'MANAGER']);
  const developer = await signUpWith(server, ['exhibit', exhibit.id, 'DEVELOPER']);
  const viewer = await signUpWith(server, ['exhibit', exhibit.id, 'VIEWER']);
  return { exhibit, manager, developer, viewer };
}

const path = (exhibitId: string) => `/exhibit-management/notifications/${exhibitId}`;

describe('GET /exhibit-management/notifications/', () => {
  it('lists every exhibit user with the default toggles; a developer may edit only their own row, a manager every row', async () => {
    const { exhibit, manager, developer, viewer } = await exhibitWithUsers();
    const res = await developer.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`);
    expect(res.status).toBe(200);
    const rows = res.body.exhibitNotifications as any[];
    expect(rows.map((r) => r.userId).sort()).toEqual([manager.id, developer.id, viewer.id].sort());
    for (const row of rows) {
      const { id, userId, email, canEdit, ...toggles } = row;
      expect(toggles).toEqual(DEFAULT_NOTIFICATION_TOGGLES);
      expect(canEdit).toBe(userId === developer.id);
      expect(id).toBe([manager, developer, viewer].find((u) => u.id === userId)!.grantIds[0]);
      expect(email).toBe([manager, developer, viewer].find((u) => u.id === userId)!.email);
    }
    const asManager = await manager.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`);
    expect((asManager.body.exhibitNotifications as any[]).every((r) => r.canEdit)).toBe(true);
  });

  it('answers 403 to a viewer and 404 to a user of another organization', async () => {
    const { exhibit, viewer } = await exhibitWithUsers();
    expect((await viewer.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`)).status).toBe(403);
    const other = await createOrganization(server.deps.db, uniqueName('Other'));
    const outsider = await userWith(server, ['organization', other.id, 'MANAGER']);
    expect((await outsider.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`)).status).toBe(404);
  });
});

describe('PUT /exhibit-management/notifications/{exhibitId}', () => {
  it('changes the caller’s own toggles and tells the consoles (exhibit.usersChanged)', async () => {
    const { exhibit, developer } = await exhibitWithUsers();
    const events = await eventsDuring(server, 'exhibit', exhibit.id, async () => {
      await setToggles(developer.client, exhibit.id, { notify_op_mode: true, notify_on_delete: false });
    });
    expect(events).toContainEqual({ type: 'exhibit.usersChanged', exhibitId: exhibit.id });
    const rows = (await developer.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`)).body.exhibitNotifications as any[];
    const own = rows.find((r) => r.userId === developer.id);
    expect(own).toMatchObject({ notify: true, notify_op_mode: true, notify_on_delete: false, notify_connected: false });
    const others = rows.filter((r) => r.userId !== developer.id);
    expect(others.every((r) => r.notify_op_mode === false && r.notify_on_delete === true)).toBe(true);
  });

  it('lets a manager and a platform admin change another user’s toggles, and nobody else', async () => {
    const { exhibit, manager, developer, viewer } = await exhibitWithUsers();
    expect((await developer.client.put(path(exhibit.id), { userId: manager.id, notify: false })).status).toBe(403);
    expect((await manager.client.put(path(exhibit.id), { userId: developer.id, notify_connected: true })).status).toBe(200);
    expect((await admin.put(path(exhibit.id), { userId: developer.id, notify_scene_changes: true })).status).toBe(200);
    const rows = (await manager.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`)).body.exhibitNotifications as any[];
    expect(rows.find((r) => r.userId === developer.id)).toMatchObject({ notify_connected: true, notify_scene_changes: true });
    expect(rows.find((r) => r.userId === manager.id)).toMatchObject({ notify: true });
    // A viewer has no Notifications tab; someone who is not a user of the exhibit cannot be changed.
    expect((await viewer.client.put(path(exhibit.id), { notify: false })).status).toBe(403);
    const siteDeveloper = await signUpWith(server, ['site', siteId, 'DEVELOPER']);
    expect((await siteDeveloper.client.put(path(exhibit.id), { notify: false })).status).toBe(404);
    expect((await manager.client.put(path(exhibit.id), { userId: siteDeveloper.id, notify: false })).status).toBe(404);
    expect((await manager.client.put(path(exhibit.id), { userId: developer.id })).status).toBe(400);
  });
});

describe('the one-click unsubscribe link', () => {
  it('is in every mail and its headers; GET turns the toggle off, POST (RFC 8058) too, a forged token answers 400', async () => {
    const { exhibit, developer, manager, viewer } = await exhibitWithUsers();
    const [viewerId, viewerEmail] = [viewer.id, viewer.email];
    await setToggles(developer.client, exhibit.id, { notify_op_mode: true });
    await setToggles(manager.client, exhibit.id, { notify_op_mode: true });
    expect((await admin.post(`/exhibit-management/exhibit/${exhibit.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    const mail = await server.mail.waitFor(developer.email, (m) => m.subject.includes(exhibit.name));
    const managerMail = await server.mail.waitFor(manager.email, (m) => m.subject.includes(exhibit.name));
    expect(mail.text).toContain(`Op mode set to On by ${adminEmail}`);
    const [, link] = linksIn(mail);
    expect(link!.pathname).toBe('/api/v1/exhibit-management/notifications/unsubscribe');
    expect(mail.headers['list-unsubscribe']).toBe(`<${link!.href}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // Opened from a webmail: a cross-site navigation, no session.
    const page = await server.client().request('GET', `${link!.pathname}${link!.search}`, undefined, { 'sec-fetch-site': 'cross-site' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(String(page.body)).toContain('The operating mode changes');
    expect(String(page.body)).toContain(exhibit.name);

    const [, managerLink] = linksIn(managerMail);
    const posted = await fetch(managerLink!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(posted.status).toBe(200);

    const rows = (await manager.client.get(`/exhibit-management/notifications/?exhibitId=${exhibit.id}`)).body.exhibitNotifications as any[];
    expect(rows.find((r) => r.userId === developer.id)).toMatchObject({ notify: true, notify_op_mode: false });
    expect(rows.find((r) => r.userId === manager.id)).toMatchObject({ notify: true, notify_op_mode: false });

    const token = managerLink!.searchParams.get('token')!;
    const forged = token.replace(manager.id, developer.id);
    expect((await server.client().get(`/exhibit-management/notifications/unsubscribe?token=${encodeURIComponent(forged)}`)).status).toBe(400);
    expect((await server.client().get('/exhibit-management/notifications/unsubscribe?token=not-a-token-at-all')).status).toBe(400);

    // Turned off: the next change mails only a user who has the toggle on (the manager turns the viewer's on).
    await setToggles(manager.client, exhibit.id, { userId: viewerId, notify_op_mode: true });
    expect((await admin.post(`/exhibit-management/exhibit/${exhibit.id}/opMode`, { opMode: 'Off' })).status).toBe(200);
    await server.mail.waitFor(viewerEmail, (m) => m.subject.includes(exhibit.name));
    await outboxSettled(server, exhibit.id, 3);
    expect(mailsTo(server, developer.email)).toHaveLength(1);
    expect(mailsTo(server, manager.email)).toHaveLength(1);
  });
});
