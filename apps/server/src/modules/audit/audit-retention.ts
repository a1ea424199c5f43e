import type { Logger } from 'pino';
import { DEFAULT_AUDIT_RETENTION_DAYS, SETTING_IDS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { startPollingWorker } from '../../lib/polling-worker.js';
import { listSettingRowsOfEveryOrganization } from '../settings/settings.repository.js';
import { dropAuditPrefix, listAuditChains } from './audit.repository.js';

/** How often every node runs the audit retention (each chain is locked while its prefix goes, so nodes may overlap). */
export const AUDIT_RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type AuditRetentionDeps = { db: Db; clock: Clock; logger: Logger };

/**
 * Each organization's `audit_retention_days` applied: the entries of its chain older than that
 * are deleted in bulk, oldest first, and the chain's anchor moves past them (audit.repository.ts,
 * `dropAuditPrefix`), the one documented exception to append-only. A deleted organization's
 * chain keeps DEFAULT_AUDIT_RETENTION_DAYS. Answers the entries dropped per organization.
 */
export async function runAuditRetention(deps: AuditRetentionDeps): Promise<Map<string, number>> {
  const settings = await listSettingRowsOfEveryOrganization(deps.db, SETTING_IDS.auditRetentionDays);
  const days = new Map(settings.map((s) => [s.organizationId, Number(s.value)]));
  const dropped = new Map<string, number>();
  for (const chain of await listAuditChains(deps.db)) {
    const keep = days.get(chain.organizationId);
    const keepDays = keep && Number.isFinite(keep) && keep > 0 ? keep : DEFAULT_AUDIT_RETENTION_DAYS;
    const cutoff = new Date(deps.clock.now().getTime() - keepDays * DAY_MS);
    const count = await dropAuditPrefix(deps.db, { organizationId: chain.organizationId, cutoff });
    if (count) dropped.set(chain.organizationId, count);
  }
  return dropped;
}

/** Runs the audit retention now and every hour until stopped (the server is stopping). */
export function startAuditRetention(deps: AuditRetentionDeps, everyMs = AUDIT_RETENTION_EVERY_MS): { stop: () => Promise<void> } {
  return startPollingWorker({
    what: 'audit retention',
    pollMs: everyMs,
    logger: deps.logger,
    pass: async () => {
      const dropped = await runAuditRetention(deps);
      if (dropped.size) deps.logger.info({ organizations: Object.fromEntries(dropped) }, 'audit entries past the retention dropped');
    },
  });
}
