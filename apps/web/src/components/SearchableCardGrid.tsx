import { Group, Loader, Stack } from '@mantine/core';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { useKeptOrder } from '../lib/useKeptOrder';
import { CardGrid, type CardItem } from './CardGrid';
import { SearchInput } from './SearchInput';

export type SearchableCardGridProps<T extends CardItem> = {
  /** Every item of the list; `filter` picks and orders those the search matches. */
  items: T[];
  filter: (items: T[], search: string) => T[];
  /**
   * What `filter` reads of an item (its name, what it orders by). Given, a list whose items
   * changed only elsewhere (a live value) keeps its order without filtering and sorting again.
   */
  orderKey?: (item: T) => string;
  renderCard: (item: T) => ReactNode;
  /** The search box's hint and accessible name ('Search for a site'). */
  searchPlaceholder: string;
  isLoading: boolean;
  /** The loader's accessible name ('Loading sites'). */
  loadingLabel: string;
  /** Shown when the list is empty ('No sites available yet.'). */
  emptyText: string;
  /** Shown when the search matches nothing ('No sites match the search criteria.'). */
  noMatchText: string;
  /** Beside the search box (Create Site). */
  action?: ReactNode;
};

/**
 * A searchable list of cards (the organization's sites, the site's exhibits and hardware): the
 * search box (Escape clears it), then a loader, the empty or no-match text, or the matching cards.
 */
export function SearchableCardGrid<T extends CardItem>(props: SearchableCardGridProps<T>) {
  const { items, filter, orderKey, renderCard, searchPlaceholder, isLoading, loadingLabel, emptyText, noMatchText, action } = props;
  const [search, setSearch] = useState('');
  // A list that arrives (10,000 boards) is filtered, sorted and drawn in a background render that
  // React slices, so its arrival is not one long task; the loader stays until it is drawn.
  const deferredItems = useDeferredValue(items);
  const arriving = deferredItems !== items && deferredItems.length === 0;
  const shown = useKeptOrder(deferredItems, (list) => filter(list, search), orderKey ?? null, search);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SearchInput placeholder={searchPlaceholder} value={search} onChange={setSearch} style={{ flex: 1, maxWidth: 480 }} />
        {action}
      </Group>
      {isLoading || arriving ? (
        <Loader aria-label={loadingLabel} />
      ) : (
        <CardGrid items={shown} renderCard={renderCard} emptyText={deferredItems.length === 0 ? emptyText : noMatchText} />
      )}
    </Stack>
  );
}
