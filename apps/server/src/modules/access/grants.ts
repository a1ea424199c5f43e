import { eq, inArray } from 'drizzle-orm';
import { hasRole, type Right, RIGHTS, type Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitPermissions, exhibits, organizationPermissions, sitePermissions, sites } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';

export type SiteRef = { id: string; organizationId: string };
export type ExhibitRef = { id: string; siteId: string; organizationId: string };
export type HardwareRef = { id: string; siteId: string; organizationId: string; exhibitId: string | null };

/**
 * Everything one user has been granted, loaded once per request. The effective role on a thing
 * is the grant on the thing itself, else on its site, else on its organization (design.md §3);
 * a platform admin is MANAGER everywhere. No grant on the chain: the thing does not exist for
 * the user (404). A thing that is only seen through a grant below it (an organization through a
 * site grant) is visible but answers 403 to what needs a role on it.
 */
export class Grants {
  constructor(
    readonly userId: string,
    readonly isPlatformAdmin: boolean,
    readonly organizations: ReadonlyMap<string, Role>,
    readonly sites: ReadonlyMap<string, { role: Role; organizationId: string }>,
    readonly exhibits: ReadonlyMap<string, { role: Role; siteId: string; organizationId: string }>,
  ) {}

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

export async function loadGrants(db: Db, user: { id: string; isPlatformAdmin: boolean }): Promise<Grants> {
  if (user.isPlatformAdmin) return new Grants(user.id, true, new Map(), new Map(), new Map());
  const [orgRows, siteRows, exhibitRows] = await Promise.all([
    db
      .select({ organizationId: organizationPermissions.organizationId, role: organizationPermissions.role })
      .from(organizationPermissions)
      .where(eq(organizationPermissions.userId, user.id)),
    db
      .select({ siteId: sitePermissions.siteId, role: sitePermissions.role, organizationId: sites.organizationId })
      .from(sitePermissions)
      .innerJoin(sites, eq(sites.id, sitePermissions.siteId))
      .where(eq(sitePermissions.userId, user.id)),
    db
      .select({
        exhibitId: exhibitPermissions.exhibitId,
        role: exhibitPermissions.role,
        siteId: exhibits.siteId,
        organizationId: sites.organizationId,
      })
      .from(exhibitPermissions)
      .innerJoin(exhibits, eq(exhibits.id, exhibitPermissions.exhibitId))
      .innerJoin(sites, eq(sites.id, exhibits.siteId))
      .where(eq(exhibitPermissions.userId, user.id)),
  ]);
  return new Grants(
    user.id,
    false,
    new Map(orgRows.map((r) => [r.organizationId, r.role])),
    new Map(siteRows.map((r) => [r.siteId, { role: r.role, organizationId: r.organizationId }])),
    new Map(
      exhibitRows.map((r) => [r.exhibitId, { role: r.role, siteId: r.siteId, organizationId: r.organizationId }]),
    ),
  );
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

export { inArray };
