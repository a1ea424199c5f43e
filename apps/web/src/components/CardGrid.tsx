import { SimpleGrid, Text, useMatches, type SimpleGridProps } from '@mantine/core';
import { Fragment, useCallback, useRef, type ReactNode } from 'react';
import { useVisibleRows } from './useVisibleRows';

/** What a card grid lists: anything with an id (its card's key). */
export type CardItem = { id: string };

export type CardGridProps<T extends CardItem> = {
  items: T[];
  /** Draws one card; give it a memoized component so that only changed items re-render. */
  renderCard: (item: T) => ReactNode;
  /** Shown instead of the grid when there are no items. */
  emptyText: string;
  /** Columns by breakpoint; three at most by default, as on the organization and site screens. */
  cols?: SimpleGridProps['cols'];
};

/** Up to this many cards are all drawn; a longer list draws only the rows near the viewport (issue 17). */
export const CARD_GRID_WINDOW_FROM = 60;
/** A row's height (card plus gap, px) until the first drawn rows are measured. */
const ESTIMATED_ROW_PX = 140;
/** SimpleGrid's spacing="md". */
const GAP_PX = 16;

/**
 * Cards in a responsive grid, or a dimmed line saying why there are none. A long list (a site's
 * 10,000 boards) is windowed: only the rows near the viewport are in the page, with spacers of
 * the other rows' height above and below, so rendering and scrolling cost the same at any size.
 */
export function CardGrid<T extends CardItem>({ items, renderCard, emptyText, cols = { base: 1, sm: 2, lg: 3 } }: CardGridProps<T>) {
  const columns = useMatches(typeof cols === 'object' ? cols : { base: cols ?? 1 }) ?? 1;
  const isWindowed = items.length > CARD_GRID_WINDOW_FROM;
  const rowCount = Math.ceil(items.length / columns);
  const gridRef = useRef<HTMLDivElement>(null);
  const measureRowPx = useCallback(() => {
    const grid = gridRef.current;
    const drawnRows = grid ? Math.ceil(grid.childElementCount / columns) : 0;
    return grid && drawnRows > 0 && grid.offsetHeight > 0 ? (grid.offsetHeight + GAP_PX) / drawnRows : 0;
  }, [columns]);
  const { containerRef, range, rowPx } = useVisibleRows({ rowCount, enabled: isWindowed, estimatedRowPx: ESTIMATED_ROW_PX, measureRowPx });

  if (items.length === 0) return <Text c="dimmed">{emptyText}</Text>;
  const first = isWindowed ? range.first : 0;
  const last = isWindowed ? range.last : rowCount - 1;
  const shown = items.slice(first * columns, (last + 1) * columns);
  return (
    <div ref={containerRef} data-testid="card-grid" data-count={items.length}>
      {isWindowed && <div style={{ height: first * rowPx }} aria-hidden />}
      <SimpleGrid ref={gridRef} cols={columns} spacing="md">
        {shown.map((item) => (
          <Fragment key={item.id}>{renderCard(item)}</Fragment>
        ))}
      </SimpleGrid>
      {isWindowed && <div style={{ height: Math.max(0, rowCount - 1 - last) * rowPx }} aria-hidden />}
    </div>
  );
}
