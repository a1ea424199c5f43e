import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageState } from './PageState';

function renderState(kind: 'loading' | 'forbidden', itemType: 'organization' | 'site' | 'exhibit' | 'hardware') {
  render(
    <MantineProvider env="test">
      <PageState kind={kind} itemType={itemType} />
    </MantineProvider>,
  );
}

describe('PageState', () => {
  it('shows a loader named after the item while it loads', () => {
    renderState('loading', 'exhibit');
    expect(screen.getByLabelText('Loading exhibit')).toBeInTheDocument();
  });

  it('says the user has no access to the item after a 403', () => {
    renderState('forbidden', 'hardware');
    expect(screen.getByText('You do not have access to this hardware.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Loading/)).not.toBeInTheDocument();
  });
});
