import { useMemo } from 'react';
import { useExhibits } from '../api/list-exhibits';
import { useHardwareBySites } from '../api/list-hardware-by-sites';
import { useOrganizations } from '../api/list-organizations';
import { useSites } from '../api/list-sites';
import type { HomeData } from '../search';

export type HomeDataState = {
  data: HomeData;
  /** Organizations, sites and exhibits are loaded together; the screen waits for all three. */
  isPending: boolean;
  /** One of the lists could not be read; the others still show. */
  hasError: boolean;
  /** May create organizations (platform admins). */
  canCreateOrganization: boolean;
};

/** Everything the home screen lists: organizations, sites and exhibits, then the hardware of the visible sites. */
export function useHomeData(): HomeDataState {
  const organizations = useOrganizations();
  const sites = useSites();
  const exhibits = useExhibits();
  const siteIds = useMemo(() => (sites.data?.sites ?? []).map((s) => s.id), [sites.data]);
  const hardware = useHardwareBySites(siteIds);

  const data = useMemo<HomeData>(
    () => ({
      organizations: organizations.data?.organizations ?? [],
      sites: sites.data?.sites ?? [],
      exhibits: exhibits.data?.exhibits ?? [],
      hardware: hardware.data?.hardware ?? [],
    }),
    [organizations.data, sites.data, exhibits.data, hardware.data],
  );

  return {
    data,
    isPending: organizations.isPending || sites.isPending || exhibits.isPending,
    hasError: organizations.isError || sites.isError || exhibits.isError || hardware.isError,
    canCreateOrganization: organizations.data?.canCreate ?? false,
  };
}
