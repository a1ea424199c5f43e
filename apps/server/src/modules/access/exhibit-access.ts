import type { Right, Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { assertRight, type Grants } from './grants.js';
import { findExhibitRefs } from './refs.repository.js';

/**
 * The caller's effective role on an exhibit when it allows `right`: 404 when the exhibit does not
 * exist for the caller (unknown, or no grant on its chain), 403 when the role is too low.
 */
export async function authorizeExhibit(db: Db, grants: Grants, access: { exhibitId: string; right: Right }): Promise<Role> {
  const [ref] = await findExhibitRefs(db, [access.exhibitId]);
  return assertRight(ref ? grants.exhibitRole(ref) : null, access.right, 'The exhibit does not exist.');
}
