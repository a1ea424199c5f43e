import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema.js';
import { createExhibit, createOrganization, createSite, signUpWith, uniqueName } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { MailCapture } from '../../test/mail-capture.js';
import { outboxSettled, setToggles } from '../../test/notification-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { listExhibitMails } from './mail-outbox.repository.js';
import { MAX_ATTEMPTS, retryDelay } from './mail-sender.js';

/** The outbox while SMTP is down: every mail waits, is retried with backoff, and goes exactly once when SMTP is back. */

let server: TestServer;
let admin: TestClient;
let smtp: MailCapture | null = null;
let smtpPort: number;

beforeAll(async () => {
  // A port nothing listens on yet: SMTP is down until the test starts a capture there.
  const probe = new MailCapture();
  await probe.start();
  smtpPort = probe.port;
  await probe.close();
  server = await startTestServer({ MAIL_OUTBOX_POLL_MS: '100', SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true` });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

describe('retryDelay', () => {
  it('doubles from 5 s and stops at 5 minutes', () => {
    expect([0, 1, 2, 3].map(retryDelay)).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelay(6)).toBe(300_000);
    expect(retryDelay(MAX_ATTEMPTS)).toBe(300_000);
  });
});

describe('the mail outbox with SMTP down', () => {
  it('retries each mail and delivers every one exactly once when SMTP is back; one out of attempts is dropped', { timeout: 60_000 }, async () => {
    const organization = await createOrganization(server.deps.db, uniqueName('Museum'));
    const site = await createSite(server.deps.db, organization.id);
    const exhibit = await createExhibit(server.deps.db, site.id, uniqueName('Pendulum'));
    const users = [await signUpWith(server, ['exhibit', exhibit.id, 'DEVELOPER']), await signUpWith(server, ['exhibit', exhibit.id, 'MANAGER'])];
    for (const user of users) await setToggles(user.client, exhibit.id, { notify_op_mode: true });
    for (const mode of ['On', 'Off', 'On']) expect((await admin.post(`/exhibit-management/exhibit/${exhibit.id}/opMode`, { opMode: mode })).status).toBe(200);

    const failed = await waitUntil(async () => {
      const rows = await listExhibitMails(server.deps.db, exhibit.id);
      return rows.length === 6 && rows.every((r) => r.attempts >= 1 && r.state === 'pending') ? rows : undefined;
    }, 'six mails tried once and waiting', 20_000);
    for (const row of failed) {
      expect(row.lastError).toBeTruthy();
      expect(row.notBefore.getTime()).toBeGreaterThan(Date.now() - 1000);
    }

    // A mail on its last attempt is dropped when it fails again.
    const [last] = failed;
    await server.deps.db.update(mailOutbox).set({ attempts: MAX_ATTEMPTS - 1, notBefore: new Date() }).where(eq(mailOutbox.id, last!.id));
    const dropped = await waitUntil(async () => (await listExhibitMails(server.deps.db, exhibit.id)).find((r) => r.id === last!.id && r.state === 'dropped'), 'the mail dropped');
    expect(dropped.lastError).toMatch(new RegExp(`^gave up after ${MAX_ATTEMPTS} attempts`));

    smtp = new MailCapture();
    await smtp.start(smtpPort);
    const rows = await outboxSettled(server, exhibit.id, 6, 40_000);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(5);
    expect(smtp.mails).toHaveLength(5);
    const delivered = smtp.mails.map((m) => `${m.to.join()} ${m.text}`);
    expect(new Set(delivered).size).toBe(5);
  });
});
