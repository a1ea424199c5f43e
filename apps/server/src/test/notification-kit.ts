import { expect } from 'vitest';
import { listExhibitMails } from '../modules/notifications/mail-outbox.repository.js';
import { waitUntil } from './hardware-kit.js';
import type { CapturedMail } from './mail-capture.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

/** Test helpers of the notification suites (not product code). */

/** Sets the caller's own toggles (or `userId`'s) on an exhibit, expecting success. */
export async function setToggles(client: TestClient, exhibitId: string, toggles: Record<string, unknown>): Promise<void> {
  const res = await client.put(`/exhibit-management/notifications/${exhibitId}`, toggles);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The outbox rows about an exhibit. */
export async function outboxRows(server: TestServer, exhibitId: string) {
  return listExhibitMails(server.deps.db, exhibitId);
}

/** Waits until the exhibit's outbox holds `count` rows or more and none is waiting or being sent. */
export async function outboxSettled(server: TestServer, exhibitId: string, count = 1, timeoutMs = 20_000) {
  return waitUntil(
    async () => {
      const rows = await outboxRows(server, exhibitId);
      const busy = rows.filter((r) => r.state === 'pending' || r.state === 'sending');
      return rows.length >= count && busy.length === 0 ? rows : undefined;
    },
    `${count} outbox rows of the exhibit sent or dropped`,
    timeoutMs,
  );
}

/** The captured mails to `email`. */
export function mailsTo(server: TestServer, email: string): CapturedMail[] {
  return server.mail.mails.filter((m) => m.to.includes(email.toLowerCase()));
}

/** The links of a mail's text, in order. */
export function linksIn(mail: CapturedMail): URL[] {
  return [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0]));
}
