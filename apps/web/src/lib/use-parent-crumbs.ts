import type { Crumb } from '../components/ItemPageHeader';
import { useOrganization } from './api/get-organization';
import { useSite } from './api/get-site';
import { paths } from './paths';

export type ParentCrumbsInput = {
  orgId: string;
  /** The organization's name as the item's record gives it, shown until (or unless) the organization itself is read. */
  organizationName: string;
  /** The site, for an item inside one (an exhibit, a board); none for a site's own page. */
  site?: { id: string; name: string; tab: 'exhibits' | 'hardware' };
};

/**
 * The breadcrumb of an item page above its name: the organization, then the site. Each is a link
 * only when the user may open it (its own read succeeded); otherwise it shows greyed, so a user
 * with a grant on a site or an exhibit only is never sent to a page that refuses them.
 */
export function useParentCrumbs({ orgId, organizationName, site }: ParentCrumbsInput): Crumb[] {
  const organization = useOrganization(orgId);
  const siteRead = useSite(site?.id);
  const crumbs: Crumb[] = [{ label: organization.data?.name ?? organizationName, to: organization.isSuccess ? paths.organization(orgId, 'sites') : null }];
  if (site) crumbs.push({ label: siteRead.data?.name ?? site.name, to: siteRead.isSuccess ? paths.site(orgId, site.id, site.tab) : null });
  return crumbs;
}
