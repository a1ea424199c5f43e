import type { Exhibit } from '@plinth/shared';
import { SearchableCardGrid } from '../../../components/SearchableCardGrid';
import { filterAndSortExhibits, exhibitOrderKey } from '../lib/device-lists';
import { ExhibitCard } from './ExhibitCard';

/** The site's exhibits: search 'Search for an exhibit' (Escape clears), online ones first. */
export function SiteExhibitsTab({ exhibits, isLoading }: { exhibits: Exhibit[]; isLoading: boolean }) {
  return (
    <SearchableCardGrid
      items={exhibits}
      filter={filterAndSortExhibits}
      orderKey={exhibitOrderKey}
      renderCard={(exhibit) => <ExhibitCard exhibit={exhibit} />}
      searchPlaceholder="Search for an exhibit"
      isLoading={isLoading}
      loadingLabel="Loading exhibits"
      emptyText="No exhibits available yet."
      noMatchText="No exhibits match the search criteria."
    />
  );
}
