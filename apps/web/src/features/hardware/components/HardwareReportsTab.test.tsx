import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HARDWARE_REPORT_DAYS, type Report } from '@plinth/shared';
import { chartData } from '../../../test/chart-mock';
import { HW, json, renderWithProviders, serve, type Call } from '../test/support';
import { HardwareReportsTab, NO_HARDWARE_EVENTS_TEXT } from './HardwareReportsTab';

vi.mock('react-chartjs-2', () => import('../../../test/chart-mock'));

const D1 = new Date(2026, 2, 13).toISOString();
const D2 = new Date(2026, 2, 14).toISOString();
const REPORT: Report = { labels: [D1, D2], datasets: [{ label: 'online', data: [2, 1] }, { label: 'reboot', data: [0, 4] }] };

function serveReport(answer: () => Response): Call[] {
  return serve((call) => (call.path === '/reporting/hardware/report' ? answer() : undefined));
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('HardwareReportsTab', () => {
  it('reads the 14 days up to now in the viewer zone and draws one bar set per event type', async () => {
    const calls = serveReport(() => json({ report: REPORT }));
    const before = Date.now();
    renderWithProviders(<HardwareReportsTab hardwareId={HW} />);
    const canvas = await screen.findByTestId('hardware-report-chart');
    const [call] = calls;
    expect(call!.query.get('hardwareId')).toBe(HW);
    expect(call!.query.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const end = Number(call!.query.get('end'));
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end - Number(call!.query.get('start'))).toBe(HARDWARE_REPORT_DAYS * 86_400_000);
    expect(canvas).toHaveAttribute('data-kind', 'bar');
    expect(canvas).toHaveAccessibleName('Events in the last 14 days chart');
    expect(chartData(canvas)).toEqual({ labels: ['03-13', '03-14'], datasets: REPORT.datasets });
  });

  it('has the table fallback: Event Name and one column per day, and can show it', async () => {
    serveReport(() => json({ report: REPORT }));
    const user = userEvent.setup();
    renderWithProviders(<HardwareReportsTab hardwareId={HW} />);
    const table = await screen.findByRole('table', { name: 'Events in the last 14 days' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Event Name', '03-13', '03-14']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['2', '1'],
      ['0', '4'],
    ]);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['online', 'reboot']);
    await user.click(screen.getByRole('button', { name: 'Show table' }));
    expect(screen.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('hardware-report-table')).toBeInTheDocument();
  });

  it('shows the empty state instead of an empty chart', async () => {
    serveReport(() => json({ report: { labels: [D1, D2], datasets: [] } }));
    renderWithProviders(<HardwareReportsTab hardwareId={HW} />);
    expect(await screen.findByText(NO_HARDWARE_EVENTS_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a failure in the tab and reads again on Refresh', async () => {
    let fail = true;
    const calls = serveReport(() => (fail ? json({ response: 'Forbidden', code: 'Forbidden', message: 'Forbidden' }, 403) : json({ report: REPORT })));
    const user = userEvent.setup();
    renderWithProviders(<HardwareReportsTab hardwareId={HW} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be loaded');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByTestId('hardware-report-chart')).toBeInTheDocument();
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
  });
});
