import {
  effectiveLevel,
  levelAllowsRead,
  levelAllowsWrite,
  type GranularKind,
  type GranularLevel,
  type Right,
  type Role,
} from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from './exhibit-access.js';
import type { Grants } from './grants.js';
import { listItemLevels, type StoredLevel } from './item-levels.repository.js';

/** How each kind of item is named in answers, and what writing it means. */
const ITEM_WORDS: Record<GranularKind, { noun: string; verb: string }> = {
  status: { noun: 'status', verb: 'change' },
  setting: { noun: 'setting', verb: 'change' },
  settingList: { noun: 'setting list', verb: 'change' },
  control: { noun: 'control', verb: 'fire' },
};

/**
 * What one user may do with each manifest item of one exhibit: their role there, narrowed by the
 * levels stored for them (design.md §3: levels never widen a role). Items with no stored level
 * get what the role allows. A hidden item does not exist for the user: answers name it as
 * missing (404), exactly as an unknown id; a read-only one answers 403 naming it.
 */
export class ItemAccess {
  private readonly stored: ReadonlyMap<string, GranularLevel>;

  constructor(
    readonly role: Role | null,
    stored: readonly StoredLevel[] = [],
  ) {
    this.stored = new Map(stored.map((s) => [itemKey(s.kind, s.manifestId), s.level]));
  }

  /** The level that applies to an item (by its manifest id). */
  level(kind: GranularKind, manifestId: string): GranularLevel {
    return effectiveLevel(this.role, kind, this.stored.get(itemKey(kind, manifestId)));
  }

  canRead(kind: GranularKind, manifestId: string): boolean {
    return levelAllowsRead(this.level(kind, manifestId));
  }

  canWrite(kind: GranularKind, manifestId: string): boolean {
    return levelAllowsWrite(this.level(kind, manifestId));
  }

  /** Throws unless the item is read_write: 404 as a missing item when hidden, 403 naming it when read only. */
  assertWrite(kind: GranularKind, manifestId: string): void {
    const level = this.level(kind, manifestId);
    if (levelAllowsWrite(level)) return;
    throw itemRefusal(kind, manifestId, level);
  }
}

/** The answer to writing an item the level does not allow (see ItemAccess). */
export function itemRefusal(kind: GranularKind, manifestId: string, level: GranularLevel): AppError {
  const { noun, verb } = ITEM_WORDS[kind];
  if (!levelAllowsRead(level)) return new AppError('NotFound', `The ${noun} "${manifestId}" does not exist.`);
  return new AppError('Forbidden', `You may not ${verb} the ${noun} "${manifestId}".`);
}

function itemKey(kind: GranularKind, manifestId: string): string {
  return `${kind}\u0000${manifestId}`;
}

/**
 * What the server itself may do when it acts for nobody in particular (a scheduled event running,
 * whose changes were checked against its author's levels when it was saved): everything.
 */
export const SERVER_ITEM_ACCESS = new ItemAccess('MANAGER');

/** One user's access to one exhibit's items, given their role there (their stored levels in one query). */
export async function loadItemAccess(db: Db, who: { exhibitId: string; userId: string; role: Role | null }): Promise<ItemAccess> {
  if (!who.role) return new ItemAccess(null);
  return new ItemAccess(who.role, await listItemLevels(db, { exhibitId: who.exhibitId, userId: who.userId }));
}

/**
 * The caller's access to an exhibit's items when their role there allows `right` (404 when the
 * exhibit does not exist for them, 403 when the role is too low; see authorizeExhibit).
 */
export async function authorizeExhibitItems(db: Db, grants: Grants, access: { exhibitId: string; right: Right }): Promise<ItemAccess> {
  const role = await authorizeExhibit(db, grants, access);
  return loadItemAccess(db, { exhibitId: access.exhibitId, userId: grants.userId, role });
}
