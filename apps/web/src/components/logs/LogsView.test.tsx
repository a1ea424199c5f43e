import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_LOG_RENEW_MS, LOG_LEVELS, type LogEntry, type LogLevel } from '@plinth/shared';
import { FakeRealtime, renderWithRealtime } from '../../test/fake-realtime';
import { DEFAULT_LOG_RANGE_MS, LogsView, NO_LOGS_TEXT, pagerText } from './LogsView';
import { readBlobText } from '../../test/read-blob-text';

const EXHIBIT = '00000000-0000-4000-8000-0000000000e1';
const OTHER = '00000000-0000-4000-8000-0000000000e2';
const HW = '00000000-0000-4000-8000-0000000000f1';

type Call = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers };

function entry(i: number, over: Partial<LogEntry> = {}): LogEntry {
  const createdAt = new Date(Date.UTC(2026, 2, 14, 12, 0, 0) - i * 1000).toISOString();
  return { id: `log-${i}`, level: 'info', message: `line ${i}`, eventType: 'info', createdAt, timestamp: Date.parse(createdAt), ...over };
}

/**
 * Stubs fetch as the logging endpoints would answer: `all` paged 20 at a time, filtered by the
 * levels asked; live-log calls answer a lease; `override` answers a call first when it returns.
 */
function serveLogs(all: LogEntry[], override?: (call: Call) => Response | undefined): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace('/api/v1', ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    const answer = override?.(call);
    if (answer) return answer;
    if (call.path.endsWith('/live')) {
      const enabled = (call.body as { enabled: boolean }).enabled;
      return json({ enabled, expiresAt: enabled ? new Date(Date.now() + 60_000).toISOString() : null });
    }
    if (call.path === '/logging/exhibit' || call.path === '/logging/hardware') {
      const levels = call.query.get('levels');
      const shown = levels === null ? all : all.filter((e) => levels.split(',').includes(e.level));
      const page = Number(call.query.get('pageIdx'));
      const size = Number(call.query.get('logsPerPage'));
      return json({ logs: shown.slice(page * size, (page + 1) * size), numLogs: shown.length });
    }
    return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return calls;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const logReads = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && /^\/logging\/(exhibit|hardware)$/.test(c.path));
const liveCalls = (calls: Call[]) => calls.filter((c) => c.path.endsWith('/live'));
const rows = () => screen.queryAllByTestId('log-row');
const pager = () => screen.getByTestId('log-pager-text');

const realObjectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
/** jsdom has no object URLs: a stub that hands out 'blob:logs' (restored after each test). */
function stubObjectUrls() {
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:logs');
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = vi.fn();
  return createObjectURL;
}

const fortyFive = Array.from({ length: 45 }, (_, i) => entry(i, { level: LOG_LEVELS[i % 4] as LogLevel, eventType: LOG_LEVELS[i % 4] as string }));

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  URL.createObjectURL = realObjectUrls.create;
  URL.revokeObjectURL = realObjectUrls.revoke;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('pagerText', () => {
  it('writes the shown span and the total', () => {
    expect(pagerText(0, 45)).toBe('Displaying 1 - 20 of 45 results');
    expect(pagerText(2, 45)).toBe('Displaying 41 - 45 of 45 results');
    expect(pagerText(0, 0)).toBe('Displaying 0 - 0 of 0 results');
    expect(pagerText(0, 1)).toBe('Displaying 1 - 1 of 1 result');
  });
});

describe('LogsView', () => {
  it('reads the last 24 hours at once, 20 a page with every level, and shows the table and the range', async () => {
    const calls = serveLogs(fortyFive);
    const before = Date.now();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(rows()).toHaveLength(20));
    const [read] = logReads(calls);
    expect(read!.query.get('exhibitId')).toBe(EXHIBIT);
    expect(read!.query.get('pageIdx')).toBe('0');
    expect(read!.query.get('logsPerPage')).toBe('20');
    expect(read!.query.get('levels')).toBe('debug,info,warn,error');
    const start = Number(read!.query.get('start'));
    const end = Number(read!.query.get('end'));
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end - start).toBe(DEFAULT_LOG_RANGE_MS);
    const table = screen.getByRole('table', { name: 'Logs' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['DATETIME', 'LOG', 'EVENT TYPE']);
    expect(within(rows()[0]!).getByText('line 0')).toBeInTheDocument();
    expect(screen.getByTestId('log-range-text')).toHaveTextContent(/^Displaying logs from \w+ \d{1,2}, \d{4} \d{1,2}:\d{2}:\d{2} (am|pm) to /);
    expect(pager()).toHaveTextContent('Displaying 1 - 20 of 45 results');
    for (const level of LOG_LEVELS) expect(screen.getByRole('checkbox', { name: level })).toBeChecked();
  });

  it('pages with Previous and Next', async () => {
    const calls = serveLogs(fortyFive);
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 1 - 20 of 45 results'));
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 21 - 40 of 45 results'));
    expect(within(rows()[0]!).getByText('line 20')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 41 - 45 of 45 results'));
    expect(rows()).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 21 - 40 of 45 results'));
    expect(logReads(calls).map((c) => c.query.get('pageIdx'))).toEqual(['0', '1', '2', '1']);
  });

  it('goes back to the first page when a level filter changes', async () => {
    const calls = serveLogs(fortyFive);
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(rows()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 21 - 40 of 45 results'));
    await user.click(screen.getByRole('checkbox', { name: 'debug' }));
    await waitFor(() => expect(pager()).toHaveTextContent('Displaying 1 - 20 of 33 results'));
    const last = logReads(calls).at(-1)!;
    expect(last.query.get('pageIdx')).toBe('0');
    expect(last.query.get('levels')).toBe('info,warn,error');
    expect(screen.getByRole('checkbox', { name: 'debug' })).not.toBeChecked();
    expect(rows().every((row) => row.dataset.level !== 'debug')).toBe(true);
    // Back on: the levels keep their order.
    await user.click(screen.getByRole('checkbox', { name: 'debug' }));
    await waitFor(() => expect(logReads(calls).at(-1)!.query.get('levels')).toBe('debug,info,warn,error'));
  });

  it('shows the empty state and no pager when nothing matches; none selected asks for none', async () => {
    const calls = serveLogs([]);
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    expect(await screen.findByText(NO_LOGS_TEXT)).toBeInTheDocument();
    expect(screen.queryByTestId('log-pager-text')).not.toBeInTheDocument();
    for (const level of LOG_LEVELS) await user.click(screen.getByRole('checkbox', { name: level }));
    await waitFor(() => expect(logReads(calls).at(-1)!.query.get('levels')).toBe(''));
  });

  it('shows the server error in the tab, naming the field', async () => {
    serveLogs([], (call) =>
      call.path === '/logging/exhibit' ? json({ response: 'end: must not be before start', code: 'ValidationError', message: 'end: must not be before start' }, 400) : undefined,
    );
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The logs could not be loaded');
    expect(alert).toHaveTextContent('end: must not be before start');
  });

  it('shows one card a row at 800 px wide or less', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...matchMedia(query), matches: query === '(max-width: 800px)' })) as typeof window.matchMedia;
    try {
      serveLogs(fortyFive.slice(0, 3));
      renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
      await waitFor(() => expect(screen.getByTestId('log-cards')).toBeInTheDocument());
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const cards = within(screen.getByRole('list', { name: 'Logs' })).getAllByRole('listitem');
      expect(cards).toHaveLength(3);
      expect(cards[0]).toHaveTextContent('DATETIME');
      expect(cards[0]).toHaveTextContent('line 0');
      expect(cards[0]).toHaveTextContent('EVENT TYPE');
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('Fetch reads the range again', async () => {
    const calls = serveLogs(fortyFive);
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(rows()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(logReads(calls)).toHaveLength(2));
    expect(logReads(calls)[1]!.query.get('start')).toBe(logReads(calls)[0]!.query.get('start'));
  });

  it('renders messages as text, never HTML, and JSON pretty-printed behind a one-line summary', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    serveLogs([
      entry(0, { message: hostile }),
      entry(1, { message: '{"scene":"intro","visitors":[1,2],"html":"<b>bold</b>"}' }),
      entry(2, { message: 'plain\nsecond line' }),
    ]);
    const user = userEvent.setup();
    const { container } = renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(rows()[0]!).getByText(hostile)).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    const toggle = within(rows()[1]!).getByRole('button', { name: /JSON message/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveTextContent('{"scene":"intro","visitors":[1,2],"html":"<b>bold</b>"}');
    expect(screen.queryByTestId('log-message-json')).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('log-message-json').textContent).toBe(
      JSON.stringify({ scene: 'intro', visitors: [1, 2], html: '<b>bold</b>' }, null, 2),
    );
    expect(container.querySelector('b')).toBeNull();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(rows()[2]!).getByTestId('log-message').textContent).toBe('plain\nsecond line');
  });

  it('downloads the CSV from the server stream with Accept: text/csv under the server file name', async () => {
    const csvName = 'exhibit-logs-server-name.csv';
    const calls = serveLogs(fortyFive, (call) =>
      call.path === '/logging/exhibit/csv'
        ? new Response('datetime,data,event_type\n', { headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${csvName}"` } })
        : undefined,
    );
    const createObjectURL = stubObjectUrls();
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await waitFor(() => expect(rows()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const csv = calls.find((c) => c.path === '/logging/exhibit/csv')!;
    expect(csv.headers.get('accept')).toBe('text/csv');
    expect(csv.query.get('id')).toBe(EXHIBIT);
    expect(csv.query.get('start')).toBe(logReads(calls)[0]!.query.get('start'));
    expect(csv.query.get('end')).toBe(logReads(calls)[0]!.query.get('end'));
    expect(saved[0]).toEqual({ href: 'blob:logs', download: csvName });
    // The file is what the server streamed, not built here.
    expect(await readBlobText(createObjectURL.mock.calls[0]![0] as Blob)).toBe('datetime,data,event_type\n');
  });

  it('names the CSV exhibit-logs-<id>-<stamp>.csv when the server gives no name, and shows a failure', async () => {
    let fail = false;
    serveLogs(fortyFive, (call) => {
      if (call.path !== '/logging/exhibit/csv') return undefined;
      return fail ? json({ response: 'Forbidden', code: 'Forbidden', message: 'x' }, 403) : new Response('datetime,data,event_type\n', { headers: { 'content-type': 'text/csv' } });
    });
    stubObjectUrls();
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const user = userEvent.setup();
    renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(names).toHaveLength(1));
    expect(names[0]).toMatch(new RegExp(`^exhibit-logs-${EXHIBIT}-\\d{8}-\\d{6}\\.csv$`));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The CSV could not be downloaded');
  });

  describe('live mode', () => {
    beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));

    it('switches the live log on at once and every 58 s, shows socket lines on top highlighted for 1 s, and off again on leaving', async () => {
      const calls = serveLogs(fortyFive);
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const realtime = new FakeRealtime();
      renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />, realtime);
      await waitFor(() => expect(rows()).toHaveLength(20));
      const readsBefore = logReads(calls).length;

      await user.click(screen.getByRole('button', { name: 'Live' }));
      expect(screen.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
      await waitFor(() => expect(liveCalls(calls)).toHaveLength(1));
      expect(liveCalls(calls)[0]).toMatchObject({ method: 'POST', path: '/logging/exhibit/live', body: { exhibitId: EXHIBIT, enabled: true } });
      expect(rows()).toHaveLength(0);
      expect(screen.queryByRole('button', { name: 'Download CSV' })).not.toBeInTheDocument();
      expect(screen.queryByTestId('log-pager-text')).not.toBeInTheDocument();
      expect(screen.getByTestId('log-range-text')).toHaveTextContent('Displaying live logs.');

      act(() => vi.advanceTimersByTime(LIVE_LOG_RENEW_MS));
      await waitFor(() => expect(liveCalls(calls)).toHaveLength(2));
      expect(liveCalls(calls)[1]!.body).toEqual({ exhibitId: EXHIBIT, enabled: true });

      const line = (message: string, exhibitId = EXHIBIT) =>
        realtime.emit({ type: 'exhibit.logged', exhibitId, log: { level: 'warn', message, eventType: 'warn', createdAt: new Date().toISOString() } });
      line('first live line');
      line('not this exhibit', OTHER);
      expect(rows()).toHaveLength(1);
      expect(rows()[0]).toHaveAttribute('data-highlighted', 'true');
      act(() => vi.advanceTimersByTime(600));
      line('second live line');
      expect(rows().map((r) => within(r).getByTestId('log-message').textContent)).toEqual(['second live line', 'first live line']);
      expect(rows()[0]).toHaveAttribute('data-highlighted', 'true');
      expect(rows()[1]).toHaveAttribute('data-highlighted', 'true');
      act(() => vi.advanceTimersByTime(400));
      expect(rows()[0]).toHaveAttribute('data-highlighted', 'true');
      expect(rows()[1]).not.toHaveAttribute('data-highlighted');
      act(() => vi.advanceTimersByTime(600));
      expect(rows()[0]).not.toHaveAttribute('data-highlighted');
      expect(logReads(calls)).toHaveLength(readsBefore);

      const leftAt = Date.now();
      await user.click(screen.getByRole('button', { name: 'Live' }));
      await waitFor(() => expect(liveCalls(calls)).toHaveLength(3));
      expect(liveCalls(calls)[2]!.body).toEqual({ exhibitId: EXHIBIT, enabled: false });
      await waitFor(() => expect(logReads(calls)).toHaveLength(readsBefore + 1));
      const reread = logReads(calls).at(-1)!;
      expect(Number(reread.query.get('end'))).toBeGreaterThanOrEqual(leftAt);
      expect(reread.query.get('start')).toBe(logReads(calls)[0]!.query.get('start'));
      expect(reread.query.get('pageIdx')).toBe('0');
      await waitFor(() => expect(rows()).toHaveLength(20));
      expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();

      // No more renewals once off.
      act(() => vi.advanceTimersByTime(LIVE_LOG_RENEW_MS * 2));
      expect(liveCalls(calls)).toHaveLength(3);
    });

    it('keeps to the chosen levels in live mode', async () => {
      serveLogs([]);
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const realtime = new FakeRealtime();
      renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />, realtime);
      await user.click(await screen.findByRole('button', { name: 'Live' }));
      await user.click(screen.getByRole('checkbox', { name: 'debug' }));
      realtime.emit({ type: 'exhibit.logged', exhibitId: EXHIBIT, log: { level: 'debug', message: 'hidden', eventType: 'debug', createdAt: new Date().toISOString() } });
      realtime.emit({ type: 'exhibit.logged', exhibitId: EXHIBIT, log: { level: 'error', message: 'shown', eventType: 'error', createdAt: new Date().toISOString() } });
      expect(rows().map((r) => within(r).getByTestId('log-message').textContent)).toEqual(['shown']);
    });

    it('switches the live log off when the view goes away, for hardware too', async () => {
      const calls = serveLogs([]);
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const realtime = new FakeRealtime();
      const { unmount } = renderWithRealtime(<LogsView source={{ kind: 'hardware', id: HW }} />, realtime);
      await waitFor(() => expect(logReads(calls)).toHaveLength(1));
      expect(logReads(calls)[0]!.path).toBe('/logging/hardware');
      expect(logReads(calls)[0]!.query.get('hardwareId')).toBe(HW);
      await user.click(screen.getByRole('button', { name: 'Live' }));
      await waitFor(() => expect(liveCalls(calls)).toHaveLength(1));
      expect(liveCalls(calls)[0]).toMatchObject({ path: '/logging/hardware/live', body: { hardwareId: HW, enabled: true } });
      realtime.emit({ type: 'hardware.logged', hardwareId: HW, log: { level: 'info', message: 'board line', eventType: 'online', createdAt: new Date().toISOString() } });
      expect(within(rows()[0]!).getByText('board line')).toBeInTheDocument();
      unmount();
      await waitFor(() => expect(liveCalls(calls)).toHaveLength(2));
      expect(liveCalls(calls)[1]!.body).toEqual({ hardwareId: HW, enabled: false });
      act(() => vi.advanceTimersByTime(LIVE_LOG_RENEW_MS));
      expect(liveCalls(calls)).toHaveLength(2);
    });

    it('shows a failure to switch live logs on', async () => {
      serveLogs([], (call) => (call.path.endsWith('/live') ? json({ response: 'Forbidden', code: 'Forbidden', message: 'Forbidden' }, 403) : undefined));
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderWithRealtime(<LogsView source={{ kind: 'exhibit', id: EXHIBIT }} />);
      await user.click(await screen.findByRole('button', { name: 'Live' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Live logs could not be switched on');
    });
  });
});
