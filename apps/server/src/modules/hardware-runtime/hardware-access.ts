import type { FastifyRequest } from 'fastify';
import type { Right } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { assertRight, type HardwareRef } from '../access/grants.js';
import { findHardwareRefs } from '../access/refs.repository.js';
import { requireUser } from '../../lib/request-user.js';
import { AppError } from '../../lib/app-error.js';

/**
 * Loads a hardware unit's place and checks the caller's right on it: 404 when the caller has no
 * role on it (or it does not exist), 403 when the role is too low.
 */
export async function authorizeHardware(db: Db, request: FastifyRequest, hardwareId: string, right: Right): Promise<HardwareRef> {
  requireUser(request);
  const [ref] = await findHardwareRefs(db, [hardwareId]);
  if (!ref) throw new AppError('NotFound');
  const grants = await request.grants();
  assertRight(grants.hardwareRole(ref), right);
  return ref;
}
