import { Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { Exhibit } from '@plinth/shared';
import { filterAndSortExhibits } from '../lib/device-lists';
import { ExhibitCard } from './ExhibitCard';

/** The site's exhibits: search 'Search for an exhibit' (Escape clears), online ones first. */
export function SiteExhibitsTab({ exhibits, isLoading }: { exhibits: Exhibit[]; isLoading: boolean }) {
  const [search, setSearch] = useState('');
  const shown = filterAndSortExhibits(exhibits, search);
  return (
    <Stack gap="md">
      <TextInput
        placeholder="Search for an exhibit"
        aria-label="Search for an exhibit"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setSearch('');
        }}
        maw={480}
      />
      {isLoading ? (
        <Loader aria-label="Loading exhibits" />
      ) : shown.length === 0 ? (
        <Text c="dimmed">{exhibits.length === 0 ? 'No exhibits available yet.' : 'No exhibits match the search criteria.'}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {shown.map((exhibit) => (
            <ExhibitCard key={exhibit.id} exhibit={exhibit} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
