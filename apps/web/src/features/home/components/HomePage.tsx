import { Alert, Badge, Group, SimpleGrid, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState, type ReactNode } from 'react';
import { BREAKPOINT_NARROW_PX } from '@plinth/shared';
import { CardGrid } from '../../../components/CardGrid';
import { SearchInput } from '../../../components/SearchInput';
import { useCurrentUser } from '../../../lib/api/get-current-user';
import { useRealtimeSubscription } from '../../../lib/realtime-context';
import { useHomeData } from '../hooks/useHomeData';
import { useNow } from '../hooks/useNow';
import { filterHomeData, HOME_CATEGORIES, visibleCategories, type HomeCategory, type HomeData } from '../search';
import { CreateOrganizationButton } from './CreateOrganizationButton';
import { ExhibitCard } from './ExhibitCard';
import { Greeting } from './Greeting';
import { HardwareCard } from './HardwareCard';
import { OrganizationCard } from './OrganizationCard';
import { SiteCard } from './SiteCard';

const SEARCH_PLACEHOLDER = 'Search for an organization, site, exhibit, or hardware';
/** The hint on a narrow screen, where the long one is cut off (the box keeps the long one as its name). */
const SEARCH_PLACEHOLDER_SHORT = 'Search organizations, sites, devices';

/** Home shows up to four cards a row on wide screens. */
const HOME_GRID_COLS = { base: 1, sm: 2, lg: 3, xl: 4 };

const NO_MATCH: Record<HomeCategory, string> = {
  exhibits: 'No exhibits match the search criteria.',
  hardware: 'No hardware matches the search criteria.',
  sites: 'No sites match the search criteria.',
  organizations: 'No organizations match the search criteria.',
};

function isEmpty(data: HomeData): boolean {
  return HOME_CATEGORIES.every((c) => data[c.value].length === 0);
}

/** Home (/): the greeting, a search over everything the user can see, and cards by category. */
export function HomePage() {
  const me = useCurrentUser();
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const home = useHomeData();
  const now = useNow();
  const [query, setQuery] = useState('');
  const [tab, setTab] = useState<HomeCategory | null>(null);

  const exhibitIds = useMemo(() => home.data.exhibits.map((e) => e.id), [home.data.exhibits]);
  const hardwareIds = useMemo(() => home.data.hardware.map((h) => h.id), [home.data.hardware]);
  useRealtimeSubscription(exhibitIds, hardwareIds);

  const isSearching = query.trim().length > 0;
  const filtered = useMemo(() => filterHomeData(home.data, query), [home.data, query]);
  const categories = visibleCategories(filtered, isSearching);
  const activeTab = tab && categories.includes(tab) ? tab : (categories[0] ?? null);
  const showWelcome = !home.isPending && !isSearching && isEmpty(home.data);

  const panel = (category: HomeCategory): ReactNode => {
    const emptyText = NO_MATCH[category];
    switch (category) {
      case 'exhibits':
        return <CardGrid items={filtered.exhibits} renderCard={(e) => <ExhibitCard exhibit={e} now={now} />} emptyText={emptyText} cols={HOME_GRID_COLS} />;
      case 'hardware':
        return <CardGrid items={filtered.hardware} renderCard={(h) => <HardwareCard hardware={h} />} emptyText={emptyText} cols={HOME_GRID_COLS} />;
      case 'sites':
        return <CardGrid items={filtered.sites} renderCard={(s) => <SiteCard site={s} />} emptyText={emptyText} cols={HOME_GRID_COLS} />;
      case 'organizations':
        return (
          <CardGrid items={filtered.organizations} renderCard={(o) => <OrganizationCard organization={o} />} emptyText={emptyText} cols={HOME_GRID_COLS} />
        );
    }
  };

  return (
    <Stack gap="lg" maw={1400} mx="auto">
      <Group justify="space-between" align="center" wrap="wrap">
        <Greeting now={now} firstName={me.data?.firstName} />
        {home.canCreateOrganization && !showWelcome && <CreateOrganizationButton />}
      </Group>

      {home.hasError && (
        <Alert color="yellow" variant="light" role="alert">
          Some of your information could not be loaded. Reload the page to try again.
        </Alert>
      )}

      {showWelcome ? (
        <Stack align="center" gap="md" py="xl" ta="center">
          {home.canCreateOrganization ? (
            <>
              <Text size="lg">Create an organization to get started.</Text>
              <CreateOrganizationButton />
            </>
          ) : (
            <Text size="lg">
              You seem to be new here!
              <br />
              Please make sure to receive an invitation to access more information.
            </Text>
          )}
        </Stack>
      ) : (
        <>
          {/* The search box comes first, usable while the lists load: what is typed filters them once they are here. */}
          <SearchInput
            placeholder={narrow ? SEARCH_PLACEHOLDER_SHORT : SEARCH_PLACEHOLDER}
            aria-label={SEARCH_PLACEHOLDER}
            value={query}
            onChange={setQuery}
            isClearable
            maxLength={200}
          />
          {home.isPending ? (
            <Stack gap="md" aria-busy="true" aria-label="Loading">
              <Skeleton h={36} radius="md" />
              <SimpleGrid cols={HOME_GRID_COLS} spacing="md">
                {Array.from({ length: 8 }, (_, i) => (
                  <Skeleton key={i} h={104} radius="md" />
                ))}
              </SimpleGrid>
            </Stack>
          ) : (
            activeTab && (
              <Tabs value={activeTab} onChange={(value) => value && setTab(value as HomeCategory)} keepMounted={false}>
                <Tabs.List>
                  {HOME_CATEGORIES.filter((c) => categories.includes(c.value)).map((c) => (
                    <Tabs.Tab
                      key={c.value}
                      value={c.value}
                      rightSection={
                        <Badge size="xs" variant="light" color="gray" aria-hidden>
                          {filtered[c.value].length}
                        </Badge>
                      }
                    >
                      {c.label}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                {categories.map((c) => (
                  <Tabs.Panel key={c} value={c} pt="md">
                    {panel(c)}
                  </Tabs.Panel>
                ))}
              </Tabs>
            )
          )}
        </>
      )}
    </Stack>
  );
}
