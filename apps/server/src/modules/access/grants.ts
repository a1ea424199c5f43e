import { hasRole, type Right, RIGHTS, type Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { listUserGrantRows } from './grants.repository.js';

export type SiteRef = { id: string; organizationId: string };
export type ExhibitRef = { id: string; siteId: string; organizationId: string };
export type HardwareRef = { id: string; siteId: string; organizationId: string; exhibitId: string | null };

/** What one user holds: their grants by the id of the thing granted (empty for a platform admin, who needs none). */
export type GrantSet = {
  userId: string;
  isPlatformAdmin: boolean;
  organizations: ReadonlyMap<string, Role>;
  sites: ReadonlyMap<string, { role: Role; organizationId: string }>;
  exhibits: ReadonlyMap<string, { role: Role; siteId: string; organizationId: string }>;
};

/**
 * Everything one user has been granted, loaded once per request. The effective role on a thing
 * is the grant on the thing itself, else on its site, else on its organization (design.md §3);
 * a platform admin is MANAGER everywhere. No grant on the chain: the thing does not exist for
 * the user (404). A thing that is only seen through a grant below it (an organization through a
 * site grant) is visible but answers 403 to what needs a role on it.
 */
export class Grants {
  readonly userId: string;
  readonly isPlatformAdmin: boolean;
  readonly organizations: GrantSet['organizations'];
  readonly sites: GrantSet['sites'];
  readonly exhibits: GrantSet['exhibits'];

  constructor(set: GrantSet) {
    this.userId = set.userId;
    this.isPlatformAdmin = set.isPlatformAdmin;
    this.organizations = set.organizations;
    this.sites = set.sites;
    this.exhibits = set.exhibits;
  }

  organizationRole(organizationId: string): Role | null {
    if (this.isPlatformAdmin) return 'MANAGER';
    return this.organizations.get(organizationId) ?? null;
  }

  siteRole(site: SiteRef): Role | null {
    if (this.isPlatformAdmin) return 'MANAGER';
    return this.sites.get(site.id)?.role ?? this.organizations.get(site.organizationId) ?? null;
  }

  exhibitRole(exhibit: ExhibitRef): Role | null {
    if (this.isPlatformAdmin) return 'MANAGER';
    return (
      this.exhibits.get(exhibit.id)?.role ??
      this.siteRole({ id: exhibit.siteId, organizationId: exhibit.organizationId })
    );
  }

  /** Hardware has no grants of its own: its site's role, else that of the exhibit it is attached to. */
  hardwareRole(hw: HardwareRef): Role | null {
    const siteRole = this.siteRole({ id: hw.siteId, organizationId: hw.organizationId });
    if (siteRole) return siteRole;
    const attached = hw.exhibitId ? this.exhibits.get(hw.exhibitId) : undefined;
    return attached?.role ?? null;
  }

  /** Organizations the user has any grant in (ids), or null for "all" (platform admin). */
  visibleOrganizationIds(): string[] | null {
    if (this.isPlatformAdmin) return null;
    const ids = new Set(this.organizations.keys());
    for (const s of this.sites.values()) ids.add(s.organizationId);
    for (const e of this.exhibits.values()) ids.add(e.organizationId);
    return [...ids];
  }

  isOrganizationVisible(organizationId: string): boolean {
    const ids = this.visibleOrganizationIds();
    return ids === null || ids.includes(organizationId);
  }

  isSiteVisible(site: SiteRef): boolean {
    if (this.siteRole(site)) return true;
    for (const e of this.exhibits.values()) if (e.siteId === site.id) return true;
    return false;
  }

  /** Site ids visible through an exhibit grant only (the site's own role is null). */
  siteIdsThroughExhibits(): string[] {
    return [...new Set([...this.exhibits.values()].map((e) => e.siteId))];
  }
}

/** Loads a user's grants (one query per kind of thing); a platform admin needs none. */
export async function loadGrants(db: Db, user: { id: string; isPlatformAdmin: boolean }): Promise<Grants> {
  const none = { organizations: new Map(), sites: new Map(), exhibits: new Map() };
  if (user.isPlatformAdmin) return new Grants({ userId: user.id, isPlatformAdmin: true, ...none });
  const rows = await listUserGrantRows(db, user.id);
  return new Grants({
    userId: user.id,
    isPlatformAdmin: false,
    organizations: new Map(rows.organizations.map((r) => [r.organizationId, r.role])),
    sites: new Map(rows.sites.map((r) => [r.siteId, { role: r.role, organizationId: r.organizationId }])),
    exhibits: new Map(rows.exhibits.map((r) => [r.exhibitId, { role: r.role, siteId: r.siteId, organizationId: r.organizationId }])),
  });
}

/**
 * Throws unless `role` allows `right`. A null role means the thing is invisible (404); a role
 * that is too low answers 403.
 */
export function assertRight(role: Role | null, right: Right, what = 'Not found'): Role {
  if (!role) throw new AppError('NotFound', what);
  if (!hasRole(role, RIGHTS[right])) throw new AppError('Forbidden');
  return role;
}

/** Ids for an `inArray` filter that never matches when the list is empty. */
export function idsOrNone(ids: string[]): string[] {
  return ids.length ? ids : ['00000000-0000-0000-0000-000000000000'];
}

/**
 * The grants of an API key (issue 20): its role on its organization, or on each of its sites
 * when it is limited to some. Never a platform admin; `userId` is the key's id, which matches no
 * person (no item levels, no grant of its own to change).
 */
export function apiKeyGrants(key: { id: string; organizationId: string; role: Role; siteIds: string[] | null }): Grants {
  const { id, organizationId, role, siteIds } = key;
  return new Grants({
    userId: id,
    isPlatformAdmin: false,
    organizations: siteIds ? new Map() : new Map([[organizationId, role]]),
    sites: new Map((siteIds ?? []).map((siteId) => [siteId, { role, organizationId }])),
    exhibits: new Map(),
  });
}
