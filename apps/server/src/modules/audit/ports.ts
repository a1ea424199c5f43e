import type { AuditAction } from '@plinth/shared';
import type { AuditContext } from './audit-context.js';

/** One change, as a service describes it to the audit log. */
export type AuditChange = {
  organizationId: string;
  siteId?: string | null;
  exhibitId?: string | null;
  hardwareId?: string | null;
  /** What kind of thing changed: 'organizationSetting', 'exhibit', 'exhibitToken', … */
  resource: string;
  resourceId: string;
  action: AuditAction;
  /** The thing before and after the change (any JSON value); secrets are redacted before storage. */
  before?: unknown;
  after?: unknown;
};

/** The audit log (`deps.audit`): appends one entry to the organization's hash chain. */
export type AuditLog = {
  record: (context: AuditContext, change: AuditChange) => Promise<void>;
};
