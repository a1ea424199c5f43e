import { SimpleGrid, Text, type SimpleGridProps } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';

/** What a card grid lists: anything with an id (its card's key). */
export type CardItem = { id: string };

export type CardGridProps<T extends CardItem> = {
  items: T[];
  renderCard: (item: T) => ReactNode;
  /** Shown instead of the grid when there are no items. */
  emptyText: string;
  /** Columns by breakpoint; three at most by default, as on the organization and site screens. */
  cols?: SimpleGridProps['cols'];
};

/** Cards in a responsive grid, or a dimmed line saying why there are none. */
export function CardGrid<T extends CardItem>({ items, renderCard, emptyText, cols = { base: 1, sm: 2, lg: 3 } }: CardGridProps<T>) {
  if (items.length === 0) return <Text c="dimmed">{emptyText}</Text>;
  return (
    <SimpleGrid cols={cols} spacing="md">
      {items.map((item) => (
        <Fragment key={item.id}>{renderCard(item)}</Fragment>
      ))}
    </SimpleGrid>
  );
}
