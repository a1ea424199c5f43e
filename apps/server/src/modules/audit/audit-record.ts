import type { AppDeps } from '../../deps.js';
import { findExhibitRefs, findHardwareRefs } from '../access/refs.repository.js';
import type { AuditContext } from './audit-context.js';
import type { AuditChange } from './ports.js';

/**
 * Recording a change to an exhibit or a board, whose organization and site the audit entry names:
 * the services that change them call these with the audit context their route handed them.
 */
/** A change to something of an exhibit (its organization and site are looked up). */
export type ExhibitAuditChange = Omit<AuditChange, 'organizationId' | 'siteId' | 'exhibitId'> & { exhibitId: string };
/** A change to something of a board (its organization, site and exhibit are looked up). */
export type HardwareAuditChange = Omit<AuditChange, 'organizationId' | 'siteId' | 'exhibitId' | 'hardwareId'> & { hardwareId: string };

/** Records a change to an exhibit or one of its parts under the exhibit's organization and site; nothing when the exhibit is gone. */
export async function recordExhibitChange(deps: AppDeps, context: AuditContext, change: ExhibitAuditChange): Promise<void> {
  const [ref] = await findExhibitRefs(deps.db, [change.exhibitId]);
  if (!ref) return;
  await deps.audit.record(context, { ...change, organizationId: ref.organizationId, siteId: ref.siteId });
}

/** Records a change to a board or one of its parts under its organization, site and exhibit; nothing when the board is gone. */
export async function recordHardwareChange(deps: AppDeps, context: AuditContext, change: HardwareAuditChange): Promise<void> {
  const [ref] = await findHardwareRefs(deps.db, [change.hardwareId]);
  if (!ref) return;
  await deps.audit.record(context, { ...change, organizationId: ref.organizationId, siteId: ref.siteId, exhibitId: ref.exhibitId });
}
