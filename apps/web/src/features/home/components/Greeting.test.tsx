import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Greeting } from './Greeting';

const at = (hours: number, minutes: number) => new Date(2026, 10, 22, hours, minutes, 0);

function renderAt(date: Date, firstName?: string) {
  render(
    <MantineProvider>
      <Greeting now={date} firstName={firstName} />
    </MantineProvider>,
  );
}

describe('Greeting', () => {
  it.each([
    [at(11, 59), 'Good Morning, Ada'],
    [at(12, 0), 'Good Afternoon, Ada'],
    [at(15, 59), 'Good Afternoon, Ada'],
    [at(16, 0), 'Good Evening, Ada'],
  ])('greets at %s with %s', (date, text) => {
    renderAt(date, 'Ada');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(text);
  });

  it('greets without a name when the user has no first name', () => {
    renderAt(at(9, 0), '  ');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Good Morning$/);
  });
});
