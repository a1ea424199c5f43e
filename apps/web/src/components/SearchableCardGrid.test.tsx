import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { matchesSearch } from '@plinth/shared';
import { SearchableCardGrid } from './SearchableCardGrid';

type Place = { id: string; name: string };
const places: Place[] = [
  { id: 'p1', name: 'Main Hall' },
  { id: 'p2', name: 'Annex' },
];

function grid(items: Place[], isLoading = false) {
  return (
    <MantineProvider env="test">
      <SearchableCardGrid
        items={items}
        filter={(all, search) => all.filter((p) => matchesSearch(p.name, search))}
        renderCard={(p) => <article aria-label={p.name}>{p.name}</article>}
        searchPlaceholder="Search for a site"
        isLoading={isLoading}
        loadingLabel="Loading sites"
        emptyText="No sites available yet."
        noMatchText="No sites match the search criteria."
        action={<button type="button">Create Site</button>}
      />
    </MantineProvider>
  );
}

function renderGrid(items: Place[], isLoading = false) {
  return render(grid(items, isLoading));
}

describe('SearchableCardGrid', () => {
  it('filters the cards as the search is typed, says when nothing matches, and Escape clears it', async () => {
    renderGrid(places);
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Create Site' })).toBeInTheDocument();
    const search = screen.getByRole('textbox', { name: 'Search for a site' });
    await userEvent.type(search, 'ann');
    expect(screen.getAllByRole('article').map((a) => a.textContent)).toEqual(['Annex']);
    await userEvent.type(search, 'zzz');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.getByText('No sites match the search criteria.')).toBeInTheDocument();
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(search).toHaveValue('');
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('says when there is nothing at all', () => {
    renderGrid([]);
    expect(screen.getByText('No sites available yet.')).toBeInTheDocument();
  });

  it('shows a loader while loading', () => {
    renderGrid(places, true);
    expect(screen.getByLabelText('Loading sites')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('goes from the loader to the arrived list without saying the list is empty in between', async () => {
    const { container, rerender } = renderGrid([], true);
    // Every text the grid put in the page on its way (the arrived list is drawn in a deferred
    // render), read from the added nodes themselves: a text shown and removed again stays in them.
    const seen: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) seen.push(node.textContent ?? '');
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    const many = Array.from({ length: 500 }, (_, i) => ({ id: `p${i}`, name: `Place ${i}` }));
    rerender(grid(many, false));
    expect(await screen.findAllByRole('article')).not.toHaveLength(0);
    observer.disconnect();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((text) => text.includes('No sites available yet.'))).toBe(false);
  });
});
