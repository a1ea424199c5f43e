import type { AppDeps } from '../deps.js';
import { loadGrants } from '../modules/access/grants.js';
import { ItemAccess, loadItemAccess } from '../modules/access/item-access.js';
import { listItemLevelsOfExhibits, type StoredLevel } from '../modules/access/item-levels.repository.js';
import { findExhibitRefs } from '../modules/access/refs.repository.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import type { Role } from '@plinth/shared';
import type { ExhibitEvent } from './hub-messages.js';

/** The manifest item an exhibit event is about, for the user's granular levels (null: about no item). */
function itemOfEvent(event: ExhibitEvent): { kind: 'status' | 'setting'; manifestId: string } | null {
  if (event.type === 'exhibit.statusChanged') return { kind: 'status', manifestId: event.statusId };
  if (event.type === 'exhibit.settingChanged') return { kind: 'setting', manifestId: event.settingId };
  return null;
}

/**
 * One console socket's view of its user's granular levels, per subscribed exhibit: whether an
 * exhibit event is about an item hidden to them. The levels of the exhibits a subscribe names are
 * read together, in one query (`preload`); an exhibit's levels dropped by `forget` (the user's
 * access changed, or the exhibit's users or levels did) are read again by its next event that
 * needs them. Events wait, in order, while levels load (socket.routes.ts `deliver`): one query per
 * exhibit, each behind the one before, held up a console subscribed to thousands of exhibits for
 * seconds under load.
 */
export class SocketItemLevels {
  private readonly byExhibit = new Map<string, ItemAccess | Promise<ItemAccess>>();

  constructor(
    private readonly deps: AppDeps,
    private readonly currentUser: () => AuthUser | null,
  ) {}

  /**
   * Whether the user may receive the event: at once when it is about no item or the levels are
   * known, else once they are loaded.
   */
  mayReceive(exhibitId: string, event: ExhibitEvent): boolean | Promise<boolean> {
    const item = itemOfEvent(event);
    if (!item) return true;
    const access = this.accessTo(exhibitId);
    return access instanceof ItemAccess ? access.canRead(item.kind, item.manifestId) : access.then((a) => a.canRead(item.kind, item.manifestId));
  }

  /**
   * Starts reading the levels of newly subscribed exhibits, with the user's role on each (null:
   * none, everything hidden), in one query; their events wait for it, not for a read each.
   */
  preload(exhibits: { exhibitId: string; role: Role | null }[]): void {
    const user = this.currentUser();
    const fresh = exhibits.filter((e) => !this.byExhibit.has(e.exhibitId));
    if (!user || !fresh.length) return;
    const exhibitIds = fresh.filter((e) => e.role).map((e) => e.exhibitId);
    const byExhibit = listItemLevelsOfExhibits(this.deps.db, { userId: user.id, exhibitIds }).then((rows) => {
      const grouped = new Map<string, StoredLevel[]>();
      for (const { exhibitId, ...level } of rows) {
        const levels = grouped.get(exhibitId);
        if (levels) levels.push(level);
        else grouped.set(exhibitId, [level]);
      }
      return grouped;
    });
    for (const { exhibitId, role } of fresh) this.track(exhibitId, byExhibit.then((grouped) => new ItemAccess(role, role ? (grouped.get(exhibitId) ?? []) : [])));
  }

  /** Drops what is known of one exhibit's levels (or of all). */
  forget(exhibitId?: string): void {
    if (exhibitId === undefined) this.byExhibit.clear();
    else this.byExhibit.delete(exhibitId);
  }

  private accessTo(exhibitId: string): ItemAccess | Promise<ItemAccess> {
    return this.byExhibit.get(exhibitId) ?? this.track(exhibitId, this.load(exhibitId));
  }

  /** Keeps an exhibit's levels while they load, then as loaded. */
  private track(exhibitId: string, loading: Promise<ItemAccess>): Promise<ItemAccess> {
    this.byExhibit.set(exhibitId, loading);
    // Once loaded, later events are checked at once; a failed load is tried again by the next event.
    loading.then(
      (access) => {
        if (this.byExhibit.get(exhibitId) === loading) this.byExhibit.set(exhibitId, access);
      },
      () => {
        if (this.byExhibit.get(exhibitId) === loading) this.byExhibit.delete(exhibitId);
      },
    );
    return loading;
  }

  private async load(exhibitId: string): Promise<ItemAccess> {
    const user = this.currentUser();
    if (!user) throw new Error('the socket is signed out');
    const [grants, refs] = await Promise.all([loadGrants(this.deps.db, user), findExhibitRefs(this.deps.db, [exhibitId])]);
    const role = refs[0] ? grants.exhibitRole(refs[0]) : null;
    return loadItemAccess(this.deps.db, { exhibitId, userId: user.id, role });
  }
}
