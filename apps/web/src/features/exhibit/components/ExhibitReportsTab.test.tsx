import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '@plinth/shared';
import { chartData } from '../../../test/chart-mock';
import { errorBody, EXHIBIT, exhibitBody, json, ORG, renderWith, serve, SITE, type Call } from '../test/fixtures';
import { DEFAULT_REPORT_INTERVAL_S, DEFAULT_REPORT_RANGE_MS, ExhibitReportsTab, NO_EVENTS_TEXT } from './ExhibitReportsTab';

vi.mock('react-chartjs-2', () => import('../../../test/chart-mock'));

/** Two buckets of 4 hours, local midnight and 4 am on 14 March 2026. */
const B0 = new Date(2026, 2, 14, 0, 0).toISOString();
const B1 = new Date(2026, 2, 14, 4, 0).toISOString();
const TOTAL: Report = { labels: [B0, B1], datasets: [{ label: 'button_press', data: [3, 5] }, { label: 'scene_start', data: [0, 2] }] };
const BY_VALUE: Report = { labels: [B0, B1], datasets: [{ label: 'intro', data: [1, 0] }] };

type World = { total: Report; byValue: Report; reportUrl?: string; failWith?: string };

function serveWorld(w: World): Call[] {
  return serve((call) => {
    if (call.path === '/reporting/exhibit/report') {
      if (w.failWith) return errorBody('ValidationError', w.failWith, 400);
      const query = new URLSearchParams(call.query);
      return json({ report: query.get('filter') === 'value' ? w.byValue : w.total });
    }
    if (call.path === `/org-management/site/${SITE}`) {
      const sitesettings = w.reportUrl === undefined ? [] : [{ idString: 'external_report_url', value: w.reportUrl }];
      return json({ id: SITE, name: 'Main Hall', organizationId: ORG, role: 'VIEWER', sitesettings });
    }
    return undefined;
  });
}

const reportCalls = (calls: Call[]) => calls.filter((c) => c.path === '/reporting/exhibit/report').map((c) => new URLSearchParams(c.query));

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitReportsTab', () => {
  it('reads both charts over the last 3 days by 4 hours in the viewer zone, and draws their datasets', async () => {
    const calls = serveWorld({ total: TOTAL, byValue: BY_VALUE });
    const before = Date.now();
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    const total = await screen.findByTestId('report-total-chart');
    const byValue = await screen.findByTestId('report-by-value-chart');

    const queries = reportCalls(calls);
    expect(queries).toHaveLength(2);
    for (const q of queries) {
      expect(q.get('exhibitId')).toBe(EXHIBIT);
      expect(q.get('interval')).toBe(String(DEFAULT_REPORT_INTERVAL_S));
      expect(q.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(Number(q.get('end'))).toBeGreaterThanOrEqual(before);
      expect(Number(q.get('end')) - Number(q.get('start'))).toBe(DEFAULT_REPORT_RANGE_MS);
    }
    expect(queries.map((q) => q.get('filter'))).toEqual([null, 'value']);

    expect(total).toHaveAttribute('aria-label', 'Total Events chart');
    expect(chartData(total)).toEqual({ labels: ['03-14 00:00', '03-14 04:00'], datasets: TOTAL.datasets });
    expect(chartData(byValue)).toEqual({ labels: ['03-14 00:00', '03-14 04:00'], datasets: BY_VALUE.datasets });
    expect(screen.getByRole('textbox', { name: 'Interval' })).toHaveValue('4hr');

    const table = screen.getByRole('table', { name: 'Total Events' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Event Name', '03-14 00:00', '03-14 04:00']);
    expect(within(table).getByRole('rowheader', { name: 'scene_start' }).closest('tr')).toHaveTextContent('scene_start02');
  });

  it('shows the empty state instead of an empty canvas', async () => {
    serveWorld({ total: { labels: [B0, B1], datasets: [] }, byValue: { labels: [B0, B1], datasets: [{ label: 'intro', data: [0, 0] }] } });
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    expect(await screen.findByTestId('report-total-empty')).toHaveTextContent(NO_EVENTS_TEXT);
    expect(await screen.findByTestId('report-by-value-empty')).toHaveTextContent(NO_EVENTS_TEXT);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('fetches again with the chosen interval', async () => {
    const calls = serveWorld({ total: TOTAL, byValue: BY_VALUE });
    const user = userEvent.setup();
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    await screen.findByTestId('report-total-chart');
    await user.click(screen.getByRole('textbox', { name: 'Interval' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['1m', '10m', '30m', '1hr', '4hr', '1d']);
    await user.click(screen.getByRole('option', { name: '10m' }));
    await user.click(screen.getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(reportCalls(calls)).toHaveLength(4));
    expect(reportCalls(calls).slice(2).map((q) => q.get('interval'))).toEqual(['600', '600']);
    // Fetch with nothing changed reads the charts again.
    await user.click(screen.getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(reportCalls(calls)).toHaveLength(6));
  });

  it('shows the server error naming the field in the tab', async () => {
    serveWorld({ total: TOTAL, byValue: BY_VALUE, failWith: 'interval: gives more than 5000 buckets over this range; choose a longer interval' });
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    const alerts = await screen.findAllByRole('alert');
    expect(alerts[0]).toHaveTextContent('Total Events could not be loaded');
    expect(alerts[0]).toHaveTextContent('interval: gives more than 5000 buckets');
  });

  it("offers View External Report, to the site's Reports tab, only when the site has an external report", async () => {
    serveWorld({ total: TOTAL, byValue: BY_VALUE, reportUrl: 'https://lookerstudio.google.com/embed/reporting/1' });
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    expect(await screen.findByRole('link', { name: 'View External Report' })).toHaveAttribute('href', `/organization/${ORG}/site/${SITE}/reports`);
  });

  it('has no View External Report without the site setting', async () => {
    serveWorld({ total: TOTAL, byValue: BY_VALUE, reportUrl: '  ' });
    renderWith(<ExhibitReportsTab exhibit={exhibitBody()} />);
    await screen.findByTestId('report-total-chart');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'View External Report' })).not.toBeInTheDocument());
  });
});
