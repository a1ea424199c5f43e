import { AUDIT_ACTIONS, type AuditAction } from '@plinth/shared';
import type { AuditFilter } from '../api/list-audit-entries';

const ID_KEYS = ['siteId', 'exhibitId', 'hardwareId'] as const;

function isAction(value: string | null): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value ?? '');
}

function epochOf(value: string | null): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

/** The audit log's filters as the page's address holds them (so a link can open it filtered). */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const filter: AuditFilter = {};
  for (const key of ID_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  const actor = params.get('actor');
  if (actor) filter.actor = actor;
  const action = params.get('action');
  if (isAction(action)) filter.action = action;
  filter.from = epochOf(params.get('from'));
  filter.to = epochOf(params.get('to'));
  return filter;
}

/** The filters as address parameters (empty ones left out). */
export function paramsFromFilter(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}

/** What an action is called in the console. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  revoke: 'Revoked',
  opMode: 'Op mode',
  lock: 'Locked',
  unlock: 'Unlocked',
  deploy: 'Deployed',
  cancel: 'Cancelled',
  upload: 'Uploaded',
  call: 'API key call',
};

/** A before or after state as one line of text (JSON, or the dash when there is none). */
export function stateText(state: unknown): string | null {
  if (state === null || state === undefined) return null;
  return JSON.stringify(state);
}
