import { matchesSearch, type Exhibit, type Hardware, type OrganizationSummary, type SiteSummary } from '@plinth/shared';

export type HomeData = {
  organizations: OrganizationSummary[];
  sites: SiteSummary[];
  exhibits: Exhibit[];
  hardware: Hardware[];
};

export type HomeCategory = 'exhibits' | 'hardware' | 'sites' | 'organizations';

/** The category tabs in the order the home screen shows them, with their labels. */
export const HOME_CATEGORIES: readonly { value: HomeCategory; label: string }[] = [
  { value: 'exhibits', label: 'Exhibits' },
  { value: 'hardware', label: 'Hardware' },
  { value: 'sites', label: 'Sites' },
  { value: 'organizations', label: 'Organizations' },
];

/**
 * The home search: case-insensitive substring on names; exhibits and hardware also match on their
 * site and organization names. An empty query keeps everything.
 */
export function filterHomeData(data: HomeData, query: string): HomeData {
  const q = query.trim();
  if (!q) return data;
  const placed = (item: { name: string; siteName: string; organizationName: string }) =>
    matchesSearch(item.name, q) || matchesSearch(item.siteName, q) || matchesSearch(item.organizationName, q);
  return {
    organizations: data.organizations.filter((o) => matchesSearch(o.name, q)),
    sites: data.sites.filter((s) => matchesSearch(s.name, q)),
    exhibits: data.exhibits.filter(placed),
    hardware: data.hardware.filter(placed),
  };
}

/** Tabs shown: each non-empty category, or every category while a search is active. */
export function visibleCategories(data: HomeData, isSearching: boolean): HomeCategory[] {
  return HOME_CATEGORIES.map((c) => c.value).filter((c) => isSearching || data[c].length > 0);
}
