import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server.js';
import { pgliteTestConfig } from '../../test/databases.js';
import { createExhibit, createOrganization, createSite, grant } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { MailCapture } from '../../test/mail-capture.js';
import { TestClient } from '../../test/test-client.js';
import { createUser } from '../auth/users.service.js';
import { listExhibitMails } from './mail-outbox.repository.js';

/** The outbox on the embedded database (PGlite in DATA_DIR): a notification is queued, claimed (FOR UPDATE SKIP LOCKED) and sent. */

let dataDir: string;
let server: RunningServer | undefined;
const mail = new MailCapture();

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-mail-'));
});
afterAll(async () => {
  await server?.close();
  await mail.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the mail outbox on the embedded database', () => {
  it('sends an op-mode notification and marks it sent', { timeout: 120_000 }, async () => {
    const smtpUrl = await mail.start();
    server = await startServer(pgliteTestConfig(dataDir, { SMTP_URL: smtpUrl, MAIL_OUTBOX_POLL_MS: '100' }));
    expect(server.deps.database.kind).toBe('pglite');
    const db = server.deps.db;
    await createUser(server.deps, { email: 'owner@example.com', password: 'Own3rPassword', isPlatformAdmin: true });
    const watcher = await createUser(server.deps, { email: 'watcher@example.com', password: 'Watch3rPassword', isPlatformAdmin: false });
    const admin = new TestClient(server.url);
    expect((await admin.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' })).status).toBe(200);
    const site = await createSite(db, (await createOrganization(db)).id);
    const exhibitId = (await createExhibit(db, site.id, 'Embedded')).id;
    await grant(db, 'exhibit', exhibitId, watcher.id, 'MANAGER');
    expect((await admin.put(`/exhibit-management/notifications/${exhibitId}`, { userId: watcher.id, notify_op_mode: true })).status).toBe(200);

    expect((await admin.post(`/exhibit-management/exhibit/${exhibitId}/opMode`, { opMode: 'On' })).status).toBe(200);
    const sent = await mail.waitFor('watcher@example.com', (m) => m.subject.includes('Embedded'), 30_000);
    expect(sent.subject).toContain('op mode changed');
    const row = await waitUntil(async () => (await listExhibitMails(db, exhibitId)).find((r) => r.state === 'sent'), 'the row marked sent', 30_000);
    expect(row.leaseOwner).toBeNull();
    expect(mail.mails).toHaveLength(1);
  });
});
