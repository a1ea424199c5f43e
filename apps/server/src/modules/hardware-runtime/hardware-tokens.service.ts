import type { Token } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordHardwareChange } from '../audit/audit-record.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import {
  deleteHardwareTokenRow,
  findHardwareTokenRow,
  hasNewerHardwareToken,
  insertHardwareToken,
  listHardwareTokenRows,
  type HardwareTokenRow,
} from './hardware-tokens.repository.js';

const present = (row: { id: string; name: string; createdAt: Date }): Token => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

/** Creates a hardware token: its value is answered once, only its SHA-256 is kept. */
export async function createHardwareToken(deps: AppDeps, hardwareId: string, create: { name: string; audit: AuditContext }): Promise<Token & { token: string }> {
  const { name } = create;
  const token = newSecret();
  const row = await insertHardwareToken(deps.db, { hardwareId, name, tokenHash: hashSecret(token), createdAt: deps.clock.now() });
  await deps.hardwareGateway.tokenCreated(hardwareId, token);
  await recordHardwareChange(deps, create.audit, { hardwareId, resource: 'hardwareToken', resourceId: row.id, action: 'create', after: { name: row.name } });
  return { ...present(row), token };
}

export async function listHardwareTokens(deps: AppDeps, hardwareId: string): Promise<Token[]> {
  const rows = await listHardwareTokenRows(deps.db, hardwareId);
  return rows.map(present);
}

export async function findHardwareToken(deps: AppDeps, tokenId: string): Promise<HardwareTokenRow> {
  const row = await findHardwareTokenRow(deps.db, tokenId);
  if (!row) throw new AppError('NotFound');
  return row;
}

/** Deletes a token; a board connected with it is dropped and refused at its next connect. */
export async function deleteHardwareToken(
  deps: AppDeps,
  token: { id: string; name: string; hardwareId: string; createdAt: Date },
  audit: AuditContext,
): Promise<void> {
  await deleteHardwareTokenRow(deps.db, token.id);
  const before = { name: token.name };
  await recordHardwareChange(deps, audit, { hardwareId: token.hardwareId, resource: 'hardwareToken', resourceId: token.id, action: 'revoke', before });
  const wasNewest = !(await hasNewerHardwareToken(deps.db, token));
  await deps.hardwareGateway.tokenRevoked(token.hardwareId, token.id, wasNewest);
}
