// One Plinth server instance for the people benchmark (bench/people.bench.ts), forked with an IPC
// channel as bench/lib/schedule-node.ts is: the server runs in this process (from the sources
// through tsx) and the benchmark asks it for the database work (users, grants, levels, outbox
// rows), which on PGlite only the process holding the database can do.
import { eq, inArray, sql } from 'drizzle-orm';
import { mailOutbox, users } from '../../apps/server/src/db/schema.js';
import type { AppDeps } from '../../apps/server/src/deps.js';
import { saveItemLevels } from '../../apps/server/src/modules/access/item-levels.repository.js';
import { createUser } from '../../apps/server/src/modules/auth/users.service.js';
import { insertOutboxMails } from '../../apps/server/src/modules/notifications/mail-outbox.repository.js';
import { noticeMail } from '../../apps/server/src/modules/notifications/notification-outbox.js';
import { findExhibitContext, saveToggles } from '../../apps/server/src/modules/notifications/notifications.repository.js';
import type { RunningServer } from '../../apps/server/src/server.js';
import { serveOverIpc } from './ipc-node.js';
import { insertExhibit } from '../../apps/server/src/modules/exhibit/exhibit.repository.js';
import { insertOrganization } from '../../apps/server/src/modules/organization/organization.repository.js';
import { insertGrant } from '../../apps/server/src/modules/permission/permission.repository.js';
import { insertSite } from '../../apps/server/src/modules/site/site.repository.js';
import { BENCH_PASSWORD, mailMarker, type MailPlan, type ToNode } from './people-protocol.js';

/** Queues the plan's mails as the notification triggers do (one row per user and cause, dedupe key cause:user). */
async function queueMails(deps: AppDeps, plan: MailPlan): Promise<number> {
  const exhibit = await findExhibitContext(deps.db, plan.exhibitId);
  if (!exhibit) throw new Error('the exhibit is missing');
  const people = await deps.db.select({ userId: users.id, email: users.email }).from(users).where(inArray(users.id, plan.userIds));
  const notBefore = new Date(plan.dueAtMs);
  const rows = [];
  for (let cause = 0; cause < plan.causes; cause++) {
    for (const user of people) {
      rows.push(
        noticeMail(deps, {
          kind: 'notification.opMode',
          toggle: 'notify_op_mode',
          exhibit,
          headline: mailMarker(cause),
          details: ['The operating mode changed (benchmark).'],
          tab: 'overview',
          cause: `bench:${exhibit.id}:${cause}`,
          notBefore,
          user,
        }),
      );
    }
  }
  let queued = 0;
  // One statement per 500 rows keeps each well under PostgreSQL's 65,535 parameters.
  for (let i = 0; i < rows.length; i += 500) queued += await insertOutboxMails(deps.db, rows.slice(i, i + 500));
  return queued;
}

/** The exhibit's outbox rows by state. */
async function outboxStates(deps: AppDeps, exhibitId: string): Promise<Record<string, number>> {
  const rows = await deps.db
    .select({ state: mailOutbox.state, n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.exhibitId, exhibitId))
    .groupBy(mailOutbox.state);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

async function handle(server: RunningServer, message: ToNode): Promise<unknown> {
  const deps = server.deps;
  switch (message.type) {
    case 'createUser':
      return (await createUser(deps, { email: message.email, password: BENCH_PASSWORD, firstName: 'Bench', lastName: 'User', isPlatformAdmin: message.admin })).id;
    case 'createExhibit': {
      const organization = await insertOrganization(deps.db, `Benchmark museum ${Date.now()}`);
      const site = await insertSite(deps.db, { organizationId: organization.id, name: 'Benchmark hall' });
      return (await insertExhibit(deps.db, { manifestLocked: false, siteId: site.id, name: 'Benchmark exhibit' })).id;
    }
    case 'grant':
      return insertGrant(deps.db, { scope: 'exhibit', scopeId: message.exhibitId, userId: message.userId, role: message.role });
    case 'subscribe':
      await saveToggles(deps.db, { exhibitId: message.exhibitId, userId: message.userId }, { notify: true, notify_op_mode: true });
      return null;
    case 'hideStatuses':
      await saveItemLevels(deps.db, { exhibitId: message.exhibitId, userId: message.userId }, message.statusIds.map((manifestId) => ({ kind: 'status', manifestId, level: 'hidden' })));
      return null;
    case 'queueMails':
      return queueMails(deps, message.plan);
    case 'outboxStates':
      return outboxStates(deps, message.exhibitId);
    case 'close':
      await server.close();
      return null;
  }
}

serveOverIpc(handle);
