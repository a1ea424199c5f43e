import { Alert, Badge, CloseButton, Group, SimpleGrid, Skeleton, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useCurrentUser } from '../../../api/auth';
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

  const handleSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setQuery('');
  };

  const panel = (category: HomeCategory): ReactNode => {
    const cards =
      category === 'exhibits'
        ? filtered.exhibits.map((e) => <ExhibitCard key={e.id} exhibit={e} now={now} />)
        : category === 'hardware'
          ? filtered.hardware.map((h) => <HardwareCard key={h.id} hardware={h} />)
          : category === 'sites'
            ? filtered.sites.map((s) => <SiteCard key={s.id} site={s} />)
            : filtered.organizations.map((o) => <OrganizationCard key={o.id} organization={o} />);
    if (cards.length === 0) return <Text c="dimmed">{NO_MATCH[category]}</Text>;
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} spacing="md">
        {cards}
      </SimpleGrid>
    );
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

      {home.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading">
          <Skeleton h={36} radius="md" />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} spacing="md">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} h={104} radius="md" />
            ))}
          </SimpleGrid>
        </Stack>
      ) : showWelcome ? (
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
          <TextInput
            placeholder={SEARCH_PLACEHOLDER}
            aria-label={SEARCH_PLACEHOLDER}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={handleSearchKey}
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={query ? <CloseButton aria-label="Clear search" onClick={() => setQuery('')} /> : null}
            maxLength={200}
          />
          {activeTab && (
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
          )}
        </>
      )}
    </Stack>
  );
}
