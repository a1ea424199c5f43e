import type { Hardware } from '@plinth/shared';
import { SearchableCardGrid } from '../../../components/SearchableCardGrid';
import { filterAndSortHardware, hardwareOrderKey } from '../lib/device-lists';
import { HardwareCard } from './HardwareCard';

/** The site's hardware: search 'Search for hardware' (Escape clears), hardware attached to an exhibit first. */
export function SiteHardwareTab({ hardware, isLoading }: { hardware: Hardware[]; isLoading: boolean }) {
  return (
    <SearchableCardGrid
      items={hardware}
      filter={filterAndSortHardware}
      orderKey={hardwareOrderKey}
      renderCard={(h) => <HardwareCard hardware={h} />}
      searchPlaceholder="Search for hardware"
      isLoading={isLoading}
      loadingLabel="Loading hardware"
      emptyText="No hardware available yet."
      noMatchText="No hardware matches the search criteria."
    />
  );
}
