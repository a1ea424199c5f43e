import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CARD_GRID_WINDOW_FROM, CardGrid } from './CardGrid';

type Item = { id: string; name: string };
const itemsOf = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: `i${i}`, name: `Item ${i}` }));

function renderGrid(items: Item[]) {
  return render(
    <MantineProvider env="test">
      <CardGrid items={items} renderCard={(item) => <article aria-label={item.name}>{item.name}</article>} emptyText="Nothing yet." cols={1} />
    </MantineProvider>,
  );
}

const shownNames = () => screen.getAllByRole('article').map((a) => a.textContent);

describe('CardGrid', () => {
  it('draws every card of a short list', () => {
    renderGrid(itemsOf(CARD_GRID_WINDOW_FROM));
    expect(screen.getAllByRole('article')).toHaveLength(CARD_GRID_WINDOW_FROM);
  });

  it('draws only the rows near the viewport of a long list, and follows the scroll', async () => {
    renderGrid(itemsOf(1000));
    const grid = screen.getByTestId('card-grid');
    expect(grid).toHaveAttribute('data-count', '1000');
    const first = shownNames();
    expect(first[0]).toBe('Item 0');
    expect(first.length).toBeLessThan(40);

    // The grid's top 50,000 px above the viewport: rows of the (estimated) 140 px each, 357 rows down.
    grid.getBoundingClientRect = () => ({ top: -50_000, bottom: 0, left: 0, right: 0, width: 0, height: 0, x: 0, y: -50_000, toJSON: () => ({}) });
    act(() => {
      fireEvent.scroll(document);
    });
    await waitFor(() => expect(shownNames()).toContain('Item 360'));
    expect(shownNames()).not.toContain('Item 0');
    expect(shownNames().length).toBeLessThan(40);
  });

  it('says why there is nothing to show', () => {
    renderGrid([]);
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
  });
});
