import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../test/factories.js';
import { captureLogs } from '../test/log-capture.js';
import { startTestServer } from '../test/test-server.js';

/** Asks for a password reset and invites a new user: the two mails that carry account links. */
async function sendLinkMails(server: Awaited<ReturnType<typeof startTestServer>>) {
  const { email } = await server.signUp();
  const admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const org = await createOrganization(server.deps.db);
  expect((await server.client().post('/auth/user/reset-password', { email })).status).toBe(200);
  const invited = `invited.${randomUUID().slice(0, 8)}@example.com`;
  const invite = await admin.post('/org-management/permission/organization', { organizationId: org.id, email: invited });
  expect(invite.status).toBe(200);
  // The reset mail goes out after the answer.
  await server.deps.background.drain();
  return { email, invited };
}

/** What was logged, with the first-start setup link (printed on purpose to the operator) left out. */
function loggedText(logs: ReturnType<typeof captureLogs>, server: Awaited<ReturnType<typeof startTestServer>>): string {
  const text = logs.text();
  return server.setupLink ? text.replaceAll(server.setupLink, '<setup link>') : text;
}

describe('where mail goes', () => {
  it('writes no reset or invitation link to the log when mail is not configured (PostgreSQL, no SMTP_URL)', async () => {
    const logs = captureLogs('trace');
    const server = await startTestServer({ SMTP_URL: '' }, { logger: logs.logger });
    try {
      const { email, invited } = await sendLinkMails(server);
      const text = loggedText(logs, server);
      expect(text).not.toContain('/reset-password?id=');
      expect(text).not.toContain('/create-account?id=');
      expect(text).toMatch(/Mail is not configured/);
      const notSent = logs.lines.filter((line) => /not sent/.test(String(line.msg)));
      expect(notSent.map((line) => (line.mail as { to: string }).to).sort()).toEqual([email, invited].sort());
      expect(server.mail.mails).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('writes mail, links included, to the log only when MAIL_TRANSPORT=log, and says so at start', async () => {
    const logs = captureLogs('info');
    const server = await startTestServer({ SMTP_URL: '', MAIL_TRANSPORT: 'log' }, { logger: logs.logger });
    try {
      expect(logs.text()).toMatch(/Mail is written to the log/);
      await sendLinkMails(server);
      expect(loggedText(logs, server)).toContain('/reset-password?id=');
      expect(loggedText(logs, server)).toContain('/create-account?id=');
      expect(server.mail.mails).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('sends through SMTP and logs no link when SMTP_URL is set', async () => {
    const logs = captureLogs('trace');
    const server = await startTestServer({}, { logger: logs.logger });
    try {
      const { email } = await sendLinkMails(server);
      await server.mail.waitFor(email, (mail) => /Reset/.test(mail.subject));
      expect(loggedText(logs, server)).not.toContain('/reset-password?id=');
      expect(loggedText(logs, server)).not.toContain('/create-account?id=');
    } finally {
      await server.stop();
    }
  });

  it('answers a reset request before the mail goes out, so its time does not tell who has an account', async () => {
    // An SMTP server that accepts the connection and never greets: a send waits until it gives up.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}/?greetingTimeout=3000&connectionTimeout=3000` });
    try {
      const { email } = await server.signUp();
      const started = Date.now();
      expect((await server.client().post('/auth/user/reset-password', { email })).status).toBe(200);
      // Had the answer waited for the mail, it would have come after the 3 s greeting timeout.
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await server.stop();
      silent.close();
    }
  });
});
