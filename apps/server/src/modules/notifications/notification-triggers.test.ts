import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createHardware, createOrganization, createSite, signUpWith, uniqueName } from '../../test/factories.js';
import { createToken, newBoard, waitUntil, waitUntilAnnounced } from '../../test/hardware-kit.js';
import { linksIn, mailsTo, outboxSettled, setToggles } from '../../test/notification-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { and, eq } from 'drizzle-orm';
import { exhibitPermissions, mailOutbox } from '../../db/schema.js';
import { insertScheduledEvents } from '../scheduling/scheduling.repository.js';
import { BOARD_ERROR_WINDOW_MS } from './notification-triggers.js';
import { listExhibitMails } from './mail-outbox.repository.js';

/**
 * Each toggle's trigger, end to end: a real SDK socket, real boards over MQTT, the real scheduler,
 * the outbox and a real SMTP capture. The offline grace is 3 s here.
 */

// Long enough for a reconnect (a new token, a sign-in, a socket) on a busy machine to land within it.
const GRACE_MS = 3000;
let server: TestServer;
let admin: TestClient;
let organizationName: string;
let organizationId: string;
let siteId: string;
const sockets: ExhibitSocket[] = [];
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  server = await startTestServer({ MAIL_OUTBOX_POLL_MS: '100', NOTIFY_OFFLINE_GRACE_MS: String(GRACE_MS), SCHEDULER_POLL_MS: '200' });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  organizationName = uniqueName('Museum');
  organizationId = (await createOrganization(server.deps.db, organizationName)).id;
  siteId = (await createSite(server.deps.db, organizationId, 'North hall')).id;
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const board of boards) await board.stop();
  await server?.stop();
});

/** An exhibit with a subscribed developer (the toggles given) and a manager left at the defaults. */
async function watchedExhibit(toggles: Record<string, boolean>) {
  const exhibit = await createExhibit(server.deps.db, siteId, uniqueName('Pendulum'));
  const watcher = await signUpWith(server, ['exhibit', exhibit.id, 'DEVELOPER']);
  const bystander = await signUpWith(server, ['exhibit', exhibit.id, 'MANAGER']);
  await setToggles(watcher.client, exhibit.id, toggles);
  return { exhibit, watcher, bystander };
}

async function connect(exhibitId: string): Promise<ExhibitSocket> {
  const socket = await openExhibitSocket(server, admin, exhibitId);
  sockets.push(socket);
  return socket;
}

/** Closes the SDK socket and waits until the exhibit is stored offline. */
async function disconnect(socket: ExhibitSocket, exhibitId: string): Promise<void> {
  socket.close();
  await waitUntil(async () => !(await isOnline(exhibitId)), 'the exhibit offline');
}

async function isOnline(exhibitId: string): Promise<boolean> {
  const res = await admin.get(`/exhibit-management/exhibit/${exhibitId}`);
  return res.body.online === true;
}

function tabLink(exhibitId: string, tab: string): string {
  return `${server.deps.config.publicUrl}/organization/${organizationId}/site/${siteId}/exhibits/${exhibitId}/${tab}`;
}

describe('notify_connected', () => {
  it('mails once the exhibit stays offline past the grace period, then "back online" when it returns', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_connected: true });
    const socket = await connect(exhibit.id);
    const closedAt = Date.now();
    await disconnect(socket, exhibit.id);
    const offline = await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('offline'), 20_000);
    // Never before the grace period (the machine may make it later, not earlier).
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(offline.subject).toBe(`[Plinth] ${exhibit.name} (North hall, ${organizationName}): offline`);
    expect(offline.text).toContain(`Organization: ${organizationName}`);
    expect(linksIn(offline)[0]!.href).toBe(tabLink(exhibit.id, 'overview'));

    await connect(exhibit.id);
    const back = await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('back online'), 20_000);
    expect(back.text).toContain('is back online');
    expect(linksIn(back)[0]!.href).toBe(tabLink(exhibit.id, 'overview'));
    await outboxSettled(server, exhibit.id, 2);
    expect(mailsTo(server, watcher.email)).toHaveLength(2);
    expect(mailsTo(server, bystander.email)).toHaveLength(0);
  });

  it('sends nothing when the exhibit is back within the grace period', async () => {
    const { exhibit, watcher } = await watchedExhibit({ notify_connected: true });
    const socket = await connect(exhibit.id);
    await disconnect(socket, exhibit.id);
    await connect(exhibit.id);
    const [row] = await outboxSettled(server, exhibit.id, 1, 20_000);
    expect(row).toMatchObject({ state: 'dropped', lastError: 'the exhibit came back online within the grace period' });
    expect(mailsTo(server, watcher.email)).toHaveLength(0);
  });

  it('sends one offline mail for an exhibit that flaps, and one back-online mail', async () => {
    const { exhibit, watcher } = await watchedExhibit({ notify_connected: true });
    for (let i = 0; i < 3; i++) await disconnect(await connect(exhibit.id), exhibit.id);
    await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('offline'), 20_000);
    await connect(exhibit.id);
    await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('back online'), 20_000);
    const rows = await outboxSettled(server, exhibit.id, 4);
    expect(rows.filter((r) => r.state === 'sent').map((r) => r.kind)).toEqual(['notification.offline', 'notification.online']);
    expect(mailsTo(server, watcher.email).map((m) => m.subject.split(': ').at(-1))).toEqual(['offline', 'back online']);
  });

  it('drops the mail of a user who lost access to the exhibit before it went', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_connected: true });
    await setToggles(bystander.client, exhibit.id, { notify_connected: true });
    const socket = await connect(exhibit.id);
    await disconnect(socket, exhibit.id);
    await waitUntil(async () => (await listExhibitMails(server.deps.db, exhibit.id)).length === 2, 'both offline mails queued');
    await server.deps.db.delete(exhibitPermissions).where(and(eq(exhibitPermissions.exhibitId, exhibit.id), eq(exhibitPermissions.userId, watcher.id)));
    await server.mail.waitFor(bystander.email, (m) => m.subject.endsWith('offline'), 20_000);
    const rows = await outboxSettled(server, exhibit.id, 2);
    expect(rows.find((r) => r.userId === watcher.id)).toMatchObject({ state: 'dropped', lastError: 'the user no longer has access to the exhibit' });
    expect(mailsTo(server, watcher.email)).toHaveLength(0);
  });
});

describe('notify_op_mode', () => {
  it('mails who changed the op mode; nothing to a user with the toggle off or the master switch off', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_op_mode: true });
    const muted = await signUpWith(server, ['exhibit', exhibit.id, 'DEVELOPER']);
    await setToggles(muted.client, exhibit.id, { notify_op_mode: true, notify: false });
    expect((await admin.post(`/exhibit-management/exhibit/${exhibit.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    const mail = await server.mail.waitFor(watcher.email, (m) => m.subject.includes(exhibit.name));
    expect(mail.subject).toBe(`[Plinth] ${exhibit.name} (North hall, ${organizationName}): op mode changed`);
    expect(mail.text).toMatch(/Op mode set to On by \S+@example\.com/);
    expect(linksIn(mail)[0]!.href).toBe(tabLink(exhibit.id, 'overview'));
    await outboxSettled(server, exhibit.id);
    expect(mailsTo(server, bystander.email)).toHaveLength(0);
    expect(mailsTo(server, muted.email)).toHaveLength(0);
  });
});

describe('notify_hardware_change and notify_hardware_notification', () => {
  it('mails when hardware is connected to the exhibit, when its board goes offline, and when it is disconnected', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_hardware_change: true });
    const board = await createHardware(server.deps.db, siteId, uniqueName('Board'));
    expect((await admin.put(`/hardware-mgmt/hardware/${board.id}`, { exhibitId: exhibit.id })).status).toBe(200);
    const connected = await server.mail.waitFor(watcher.email, (m) => m.text.includes(`Hardware "${board.name}" connected by`));
    expect(connected.subject).toContain('hardware changed');
    expect(linksIn(connected)[0]!.href).toBe(tabLink(exhibit.id, 'hardware'));

    const { token } = await createToken(admin, board.id);
    const simulated = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId: board.id, token });
    boards.push(simulated);
    await simulated.start();
    await waitUntilAnnounced(server, board.id);
    await simulated.stop();
    const offline = await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith(`board "${board.name}" offline`));
    expect(linksIn(offline)[0]!.href).toBe(tabLink(exhibit.id, 'hardware'));

    expect((await admin.put(`/hardware-mgmt/hardware/${board.id}`, { exhibitId: null })).status).toBe(200);
    await server.mail.waitFor(watcher.email, (m) => m.text.includes(`Hardware "${board.name}" disconnected by`));
    await outboxSettled(server, exhibit.id, 3);
    expect(mailsTo(server, watcher.email)).toHaveLength(3);
    expect(mailsTo(server, bystander.email)).toHaveLength(0);
  });

  it('mails a board’s error at once, and gathers the next ones of the window in one later mail ("and N more")', async () => {
    const { exhibit, watcher } = await watchedExhibit({ notify_hardware_notification: true });
    const board = await createHardware(server.deps.db, siteId, uniqueName('Board'), { exhibitId: exhibit.id });
    const { token } = await createToken(admin, board.id);
    const simulated = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId: board.id, token });
    boards.push(simulated);
    await simulated.start();
    await waitUntilAnnounced(server, board.id);

    simulated.logLine('warn', 'Motor warm');
    simulated.logLine('error', 'Motor stalled');
    const immediate = await server.mail.waitFor(watcher.email, (m) => m.subject.includes(exhibit.name));
    expect(immediate.subject).toContain(`board "${board.name}" logged an error`);
    expect(immediate.text).toContain('logged an error: Motor stalled');
    expect(immediate.text).not.toContain('more');
    expect(linksIn(immediate)[0]!.href).toBe(tabLink(exhibit.id, 'logs'));

    simulated.logLine('error', 'Motor stalled again');
    simulated.logLine('error', 'Fuse blown');
    const later = await waitUntil(async () => {
      const rows = await listExhibitMails(server.deps.db, exhibit.id);
      return rows.find((r) => r.state === 'pending' && r.textBody.includes('and 1 more error'));
    }, 'the next errors gathered in one waiting mail');
    const rows = await listExhibitMails(server.deps.db, exhibit.id);
    expect(rows).toHaveLength(2);
    const first = rows.find((r) => r.id !== later.id)!;
    expect(later.notBefore.getTime() - first.notBefore.getTime()).toBe(BOARD_ERROR_WINDOW_MS);
    expect(later.textBody).toContain('logged an error: Motor stalled again');

    // The window's end, brought forward: the gathered mail goes.
    await server.deps.db.update(mailOutbox).set({ notBefore: new Date() }).where(eq(mailOutbox.id, later.id));
    const second = await server.mail.waitFor(watcher.email, (m) => m.text.includes('and 1 more error'));
    expect(second.text).toContain('Motor stalled again');
    expect(mailsTo(server, watcher.email)).toHaveLength(2);
  });
});

describe('notify_scene_changes', () => {
  it('mails when a scheduled event runs and when one is missed', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_scene_changes: true });
    const none = { settings: [], strapiContent: [], controls: [], opMode: null };
    const now = Date.now();
    await insertScheduledEvents(server.deps.db, [
      { exhibitId: exhibit.id, name: 'Night mode', startDate: new Date(now), endDate: null, recurring: false, changes: none },
      { exhibitId: exhibit.id, name: 'Long ago', startDate: new Date(now - 10 * 60_000), endDate: null, recurring: false, changes: none },
    ]);
    const ran = await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('a scheduled event ran'), 20_000);
    expect(ran.text).toContain('Scheduled event "Night mode" ran');
    expect(linksIn(ran)[0]!.href).toBe(tabLink(exhibit.id, 'scheduling'));
    const missed = await server.mail.waitFor(watcher.email, (m) => m.subject.endsWith('a scheduled event failed'), 20_000);
    expect(missed.text).toContain('Scheduled event "Long ago"');
    expect(missed.text).toContain('missed');
    await outboxSettled(server, exhibit.id, 2);
    expect(mailsTo(server, bystander.email)).toHaveLength(0);
  });
});

describe('notify_on_delete', () => {
  it('mails the users who keep the default when the exhibit is deleted, after its rows are gone', async () => {
    const { exhibit, watcher, bystander } = await watchedExhibit({ notify_on_delete: false });
    expect((await admin.delete(`/exhibit-management/exhibit/${exhibit.id}`)).status).toBe(200);
    const mail = await server.mail.waitFor(bystander.email, (m) => m.subject.includes(exhibit.name));
    expect(mail.subject).toBe(`[Plinth] ${exhibit.name} (North hall, ${organizationName}): deleted`);
    expect(mail.text).toMatch(/was deleted by \S+@example\.com/);
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
    const rows = await outboxSettled(server, exhibit.id);
    expect(rows).toHaveLength(1);
    expect(mailsTo(server, watcher.email)).toHaveLength(0);
  });
});
