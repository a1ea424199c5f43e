import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExhibit, createOrganization, createSite, signUpWith, uniqueName } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { outboxSettled, setToggles } from '../../test/notification-kit.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { enqueueNotice } from './notification-outbox.js';
import { findExhibitContext } from './notifications.repository.js';

/** Two instances of one deployment (one database, one Redis): each notification mail goes once, whichever node sends it. */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL, MAIL_OUTBOX_POLL_MS: '50' });
  b = await startTestServer({ REDIS_URL, MAIL_OUTBOX_POLL_MS: '50' }, { databaseUrl: a.databaseUrl });
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe('the mail outbox on two nodes', () => {
  it('sends each of many mails due at once exactly once', { timeout: 60_000 }, async () => {
    const organization = await createOrganization(a.deps.db, uniqueName('Museum'));
    const site = await createSite(a.deps.db, organization.id);
    const exhibit = await createExhibit(a.deps.db, site.id, uniqueName('Pendulum'));
    const users = [];
    for (let i = 0; i < 3; i++) users.push(await signUpWith(a, ['exhibit', exhibit.id, 'DEVELOPER']));
    for (const user of users) await setToggles(user.client, exhibit.id, { notify_op_mode: true });
    const context = (await findExhibitContext(a.deps.db, exhibit.id))!;
    // 3 users x 20 causes, all due at the same moment a little ahead, so both nodes claim from the same batch.
    const at = new Date(Date.now() + 1000);
    for (let i = 0; i < 20; i++) {
      const queued = await enqueueNotice(a.deps, {
        kind: 'notification.opMode',
        toggle: 'notify_op_mode',
        exhibit: context,
        headline: 'op mode changed',
        details: [`Change number ${i}`],
        tab: 'overview',
        cause: `test:${exhibit.id}:${i}`,
        notBefore: at,
      });
      expect(queued).toBe(3);
    }
    // The same causes again: already queued, nothing more.
    const again = await enqueueNotice(a.deps, { kind: 'notification.opMode', toggle: 'notify_op_mode', exhibit: context, headline: 'x', details: [], tab: 'overview', cause: `test:${exhibit.id}:0`, notBefore: at });
    expect(again).toBe(0);

    await waitUntil(() => a.mail.mails.length + b.mail.mails.length >= 60, '60 mails delivered', 40_000);
    const rows = await outboxSettled(a, exhibit.id, 60);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(60);
    const delivered = [...a.mail.mails, ...b.mail.mails].map((m) => `${m.to.join()} ${m.text.split('\n')[0]}`);
    expect(delivered).toHaveLength(60);
    expect(new Set(delivered).size).toBe(60);
  });
});
