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

function renderGrid(items: Place[], isLoading = false) {
  render(
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
    </MantineProvider>,
  );
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
});
