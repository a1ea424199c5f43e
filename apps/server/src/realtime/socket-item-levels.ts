import type { AppDeps } from '../deps.js';
import { loadGrants } from '../modules/access/grants.js';
import { ItemAccess, loadItemAccess } from '../modules/access/item-access.js';
import { findExhibitRefs } from '../modules/access/refs.repository.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import type { ExhibitEvent } from './hub-messages.js';

/** The manifest item an exhibit event is about, for the user's granular levels (null: about no item). */
function itemOfEvent(event: ExhibitEvent): { kind: 'status' | 'setting'; manifestId: string } | null {
  if (event.type === 'exhibit.statusChanged') return { kind: 'status', manifestId: event.statusId };
  if (event.type === 'exhibit.settingChanged') return { kind: 'setting', manifestId: event.settingId };
  return null;
}

/**
 * One console socket's view of its user's granular levels, per subscribed exhibit: whether an
 * exhibit event is about an item hidden to them. Levels are loaded on the first event that needs
 * them and kept until `forget` (the user's access changed, or the exhibit's users or levels did).
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

  /** Drops what is known of one exhibit's levels (or of all). */
  forget(exhibitId?: string): void {
    if (exhibitId === undefined) this.byExhibit.clear();
    else this.byExhibit.delete(exhibitId);
  }

  private accessTo(exhibitId: string): ItemAccess | Promise<ItemAccess> {
    const cached = this.byExhibit.get(exhibitId);
    if (cached) return cached;
    const loading = this.load(exhibitId);
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
