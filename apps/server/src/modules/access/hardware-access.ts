import type { Right } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { assertRight, type Grants, type HardwareRef } from './grants.js';
import { findHardwareRefs } from './refs.repository.js';

/**
 * Loads a hardware unit's place and checks the caller's right on it: 404 when the caller has no
 * role on it (or it does not exist), 403 when the role is too low.
 */
export async function authorizeHardware(db: Db, grants: Grants, access: { hardwareId: string; right: Right }): Promise<HardwareRef> {
  const [ref] = await findHardwareRefs(db, [access.hardwareId]);
  if (!ref) throw new AppError('NotFound');
  assertRight(grants.hardwareRole(ref), access.right);
  return ref;
}
