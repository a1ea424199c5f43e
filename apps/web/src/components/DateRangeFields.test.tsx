import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { DateRange } from '../lib/date-range';
import { DateRangeFields } from './DateRangeFields';

function Harness({ initial }: { initial: DateRange }) {
  const [range, setRange] = useState(initial);
  return (
    <MantineProvider env="test">
      <DateRangeFields value={range} onChange={setRange} />
      <output data-testid="range">{`${range.start.toISOString()}|${range.end.toISOString()}`}</output>
    </MantineProvider>
  );
}

const range = () => screen.getByTestId('range').textContent!.split('|').map((iso) => new Date(iso));

describe('DateRangeFields', () => {
  it('shows Start and End in the picker format', () => {
    render(<Harness initial={{ start: new Date(2026, 2, 10, 9, 30), end: new Date(2026, 2, 12, 16, 5) }} />);
    expect(screen.getByRole('button', { name: 'Start' })).toHaveTextContent('03-10-2026 9:30 am');
    expect(screen.getByRole('button', { name: 'End' })).toHaveTextContent('03-12-2026 4:05 pm');
  });

  it('moves the end along when the start is moved past it', async () => {
    const user = userEvent.setup();
    render(<Harness initial={{ start: new Date(2026, 2, 10, 9, 30), end: new Date(2026, 2, 12, 16, 5) }} />);
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: '20 March 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply start' }));
    const [start, end] = range();
    expect(start).toEqual(new Date(2026, 2, 20, 9, 30));
    expect(end).toEqual(start);
  });

  it('does not let the end go before the start', async () => {
    const user = userEvent.setup();
    render(<Harness initial={{ start: new Date(2026, 2, 10, 9, 30), end: new Date(2026, 2, 12, 16, 5) }} />);
    await user.click(screen.getByRole('button', { name: 'End' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: '5 March 2026' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: '11 March 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply end' }));
    expect(range()).toEqual([new Date(2026, 2, 10, 9, 30), new Date(2026, 2, 11, 16, 5)]);
  });
});
