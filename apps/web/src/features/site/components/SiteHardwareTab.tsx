import { Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { Hardware } from '@plinth/shared';
import { filterAndSortHardware } from '../lib/device-lists';
import { HardwareCard } from './HardwareCard';

/** The site's hardware: search 'Search for hardware' (Escape clears), hardware attached to an exhibit first. */
export function SiteHardwareTab({ hardware, isLoading }: { hardware: Hardware[]; isLoading: boolean }) {
  const [search, setSearch] = useState('');
  const shown = filterAndSortHardware(hardware, search);
  return (
    <Stack gap="md">
      <TextInput
        placeholder="Search for hardware"
        aria-label="Search for hardware"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setSearch('');
        }}
        maw={480}
      />
      {isLoading ? (
        <Loader aria-label="Loading hardware" />
      ) : shown.length === 0 ? (
        <Text c="dimmed">{hardware.length === 0 ? 'No hardware available yet.' : 'No hardware matches the search criteria.'}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {shown.map((h) => (
            <HardwareCard key={h.id} hardware={h} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
