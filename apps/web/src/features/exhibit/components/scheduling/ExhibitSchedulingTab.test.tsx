import { Notifications, notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCHEDULE_MESSAGES, type Control, type Schedules } from '@plinth/shared';
import { FakeRealtime, renderWithRealtime } from '../../../../test/fake-realtime';
import { useExhibitLiveSchedules } from '../../hooks/useExhibitLiveSchedules';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, renderWith, scheduledEvent, serve, setting, type Call } from '../../test/fixtures';
import { ExhibitSchedulingTab, NO_EVENTS_TEXT } from './ExhibitSchedulingTab';

/** Wednesday 11 March 2026, 10:00 UTC: the week shown is 8 to 14 March. */
const NOW = new Date('2026-03-11T10:00:00Z');
const SERIES = '00000000-0000-4000-8000-000000000201';


const DAILY = { label: 'Daily', value: 'Daily', altValue: '1111111' } as const;
const RESTART: Control = { id: 'c1', manifestId: 'restart', type: 'Single', display: 'Restart', write: true, enabledOpMode: 'none', order: 0, items: [] };
const MANIFEST = manifestBody({
  controls: [RESTART],
  settings: [setting({ manifestId: 'volume', display: 'Volume', type: 'IntegerInput', value: 3, min: 0, max: 10 })],
});

type World = Partial<Schedules> & { listStatus?: number; writeError?: string };

function serveWorld(world: World): Call[] {
  return serve((call) => {
    if (call.path === `/exhibit-management/exhibit/${EXHIBIT}/manifest`) return json(MANIFEST);
    if (call.path.startsWith('/exhibit-management/scheduling/')) {
      if (call.method === 'GET') {
        if (world.listStatus) return errorBody('InternalServer', 'Database unavailable', world.listStatus);
        return json({ schedules: world.schedules ?? [], timeZone: world.timeZone ?? 'UTC', canModify: world.canModify ?? true });
      }
      if (world.writeError) return errorBody('ValidationError', world.writeError, 400);
      if (call.method === 'DELETE') return json({ deleted: 1 });
      return json({ schedules: [] });
    }
    return undefined;
  });
}

const writes = (calls: Call[], method: string) => calls.filter((c) => c.method === method && c.path.startsWith('/exhibit-management/scheduling/'));

function renderTab() {
  return renderWith(
    <>
      <Notifications />
      <ExhibitSchedulingTab exhibit={exhibitBody({ role: 'DEVELOPER' })} />
    </>,
  );
}

const dialog = () => screen.getByRole('dialog', { name: /Event/ });
const setInput = (label: RegExp, value: string) => fireEvent.change(within(dialog()).getByLabelText(label), { target: { value } });

async function openCreate() {
  await userEvent.click(await screen.findByRole('button', { name: 'Create Event' }));
  return screen.findByRole('dialog', { name: 'Create Event' });
}

async function chooseOption(label: RegExp, option: string) {
  await userEvent.click(within(dialog()).getByRole('textbox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitSchedulingTab', () => {
  it("shows the week's events in the site's zone, and reads the range the calendar shows", async () => {
    const calls = serveWorld({ timeZone: 'Europe/Paris', schedules: [scheduledEvent({}), scheduledEvent({ id: '00000000-0000-4000-8000-000000000102', name: 'Dawn', state: 'missed' })] });
    renderTab();
    expect(await screen.findByText('Times in Europe/Paris')).toBeInTheDocument();
    expect(await screen.findByText('Morning show')).toBeInTheDocument();
    expect(screen.getByText('Dawn (Missed)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Event' })).toBeInTheDocument();
    await waitFor(() => {
      const query = new URLSearchParams(calls.filter((c) => c.method === 'GET' && c.path === `/exhibit-management/scheduling/${EXHIBIT}`).at(-1)!.query);
      // The week of 8 March 2026 from midnight in Paris (UTC+1).
      expect(query.get('start')).toBe('2026-03-07T23:00:00.000Z');
    });
  });

  it('says when nothing is scheduled, and offers no Create Event without canModify', async () => {
    serveWorld({ canModify: false });
    renderTab();
    expect(await screen.findByText(NO_EVENTS_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Event' })).not.toBeInTheDocument();
  });

  it('shows a failed read with its text and Retry, never an empty calendar', async () => {
    const calls = serveWorld({ listStatus: 500 });
    renderTab();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(screen.queryByText('Times in UTC')).not.toBeInTheDocument();
    const reads = calls.length;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls.length).toBeGreaterThan(reads));
  });

  it('checks the dates as the user types, with the spec texts, and keeps Create disabled', async () => {
    serveWorld({});
    renderTab();
    await openCreate();
    const create = within(dialog()).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const name = within(dialog()).getByLabelText(/Event name/);
    await userEvent.type(name, 'x');
    await userEvent.clear(name);
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.nameRequired)).toBeInTheDocument();

    setInput(/^Start/, '2026-03-10T09:00');
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.startInPast)).toBeInTheDocument();
    setInput(/^Start/, '2026-03-12T09:00');
    setInput(/^End/, '2026-03-12T08:00');
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.endBeforeStart)).toBeInTheDocument();
    setInput(/^End/, '2026-03-12T10:00');
    await userEvent.click(within(dialog()).getByRole('switch', { name: 'Recurring' }));
    setInput(/^Recurring end date/, '2026-03-12T20:00');
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.recurringEndTooSoon)).toBeInTheDocument();
    setInput(/^Start/, '12345-01-01T10:00');
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.yearTooLong)).toBeInTheDocument();
    expect(create).toBeDisabled();
  });

  it('creates a daily series setting a value and firing a control', async () => {
    const calls = serveWorld({});
    renderTab();
    await openCreate();
    await userEvent.type(within(dialog()).getByLabelText(/Event name/), 'Night mode');
    setInput(/^Start/, '2026-03-12T09:00');
    await userEvent.click(within(dialog()).getByRole('switch', { name: 'Recurring' }));
    // The end, three months after the start, became one hour after it.
    expect(within(dialog()).getByLabelText(/^End/)).toHaveValue('2026-03-12T10:00');
    expect(within(dialog()).getByText(SCHEDULE_MESSAGES.noChanges)).toBeInTheDocument();

    await userEvent.click(within(dialog()).getByRole('button', { name: 'Add change' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Setting: Volume' }));
    const volume = within(dialog()).getByRole('textbox', { name: 'Volume value' });
    await userEvent.clear(volume);
    await userEvent.type(volume, '7');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Add change' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Control: Restart' }));

    await userEvent.click(within(dialog()).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(writes(calls, 'POST')).toHaveLength(1));
    expect(writes(calls, 'POST')[0]!.path).toBe(`/exhibit-management/scheduling/${EXHIBIT}`);
    expect(writes(calls, 'POST')[0]!.body).toEqual({
      manifest: { controls: [{ controlId: 'restart', controlGroupItemId: null }], settings: [{ settingId: 'volume', value: 7 }], strapiContent: [], opMode: null },
      eventName: 'Night mode',
      startDate: '2026-03-12T09:00:00.000Z',
      endDate: '2026-03-12T10:00:00.000Z',
      recurring: true,
      selectedFrequency: DAILY,
      recurringEndDate: '2026-06-12T09:00:00.000Z',
    });
    expect(await screen.findByText('The event was created.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Event' })).not.toBeInTheDocument());
  });

  it("shows a 400's text under the dates and in a red banner", async () => {
    const text = SCHEDULE_MESSAGES.startInPast;
    serveWorld({ writeError: `startDate: ${text}` });
    renderTab();
    await openCreate();
    await userEvent.type(within(dialog()).getByLabelText(/Event name/), 'Night mode');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Add change' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Operating mode' }));
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('schedule-date-error')).toHaveTextContent(text);
    expect(screen.getByText('The event was not saved')).toBeInTheDocument();
    expect(screen.getAllByText(text)).toHaveLength(2);
    expect(dialog()).toBeInTheDocument();
  });

  it('asks only for All events when the frequency of a series changed', async () => {
    const occurrence = scheduledEvent({ recurring: true, recurringId: SERIES, frequency: DAILY, selectedFrequency: DAILY, recurringEndDate: '2026-06-12T09:00:00.000Z' });
    const calls = serveWorld({ schedules: [occurrence] });
    renderTab();
    await userEvent.click(await screen.findByText('Morning show'));
    await screen.findByRole('dialog', { name: 'Edit Event' });
    await chooseOption(/^Frequency/, 'Weekly');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    const ask = await screen.findByRole('dialog', { name: 'Change the whole series' });
    expect(within(ask).queryByRole('button', { name: 'This event' })).not.toBeInTheDocument();
    await userEvent.click(within(ask).getByRole('button', { name: 'All events' }));
    await waitFor(() => expect(writes(calls, 'PUT')).toHaveLength(1));
    expect(writes(calls, 'PUT')[0]!.path).toBe(`/exhibit-management/scheduling/${occurrence.id}`);
    expect(writes(calls, 'PUT')[0]!.body).toMatchObject({
      exhibitId: EXHIBIT,
      recurringId: SERIES,
      changeAll: true,
      // 12 March 2026 is a Thursday.
      selectedFrequency: { label: 'Weekly', value: 'Weekly', altValue: '0000100' },
    });
  });

  it('asks This event or All events for another edit of a series, and deletes one occurrence', async () => {
    const occurrence = scheduledEvent({ recurring: true, recurringId: SERIES, frequency: DAILY, selectedFrequency: DAILY, recurringEndDate: '2026-06-12T09:00:00.000Z' });
    const calls = serveWorld({ schedules: [occurrence] });
    renderTab();
    await userEvent.click(await screen.findByText('Morning show'));
    await screen.findByRole('dialog', { name: 'Edit Event' });
    await userEvent.type(within(dialog()).getByLabelText(/Event name/), ' late');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    const ask = await screen.findByRole('dialog', { name: 'Save a recurring event' });
    expect(ask).toHaveTextContent('Apply to this event only, or to all future events in the series?');
    await userEvent.click(within(ask).getByRole('button', { name: 'This event' }));
    await waitFor(() => expect(writes(calls, 'PUT')).toHaveLength(1));
    expect(writes(calls, 'PUT')[0]!.body).toMatchObject({ eventName: 'Morning show late', changeAll: false, startDate: occurrence.startDate });

    await userEvent.click(await screen.findByText('Morning show'));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Edit Event' })).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete event' })).getByRole('button', { name: 'This event' }));
    await waitFor(() => expect(writes(calls, 'DELETE')).toHaveLength(1));
    expect(new URLSearchParams(writes(calls, 'DELETE')[0]!.query).get('changeAll')).toBe('false');
    expect(new URLSearchParams(writes(calls, 'DELETE')[0]!.query).get('recurringId')).toBe(SERIES);
  });

  it('shows a completed event read-only, with what it did', async () => {
    serveWorld({
      schedules: [
        scheduledEvent({
          state: 'completed',
          completed: true,
          startDate: '2026-03-10T09:00:00.000Z',
          endDate: '2026-03-10T10:00:00.000Z',
          ranAt: '2026-03-10T09:00:05.000Z',
          outcome: ['Op mode: On'],
          schedulesettings: [{ settingId: 'volume', setting: 'Volume', value: 7, listName: null }],
        }),
      ],
    });
    renderTab();
    await userEvent.click(await screen.findByText('Morning show'));
    const view = await screen.findByRole('dialog', { name: 'Event' });
    expect(within(view).getByText('Completed')).toBeInTheDocument();
    expect(within(view).getByText('Op mode: On')).toBeInTheDocument();
    expect(within(view).getByText('Setting Volume: 7')).toBeInTheDocument();
    expect(within(view).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(view).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('shows a waiting event read-only to a user without canModify', async () => {
    serveWorld({ canModify: false, schedules: [scheduledEvent({})] });
    renderTab();
    await userEvent.click(await screen.findByText('Morning show'));
    const view = await screen.findByRole('dialog', { name: 'Event' });
    expect(within(view).getByText('Scheduled')).toBeInTheDocument();
    expect(within(view).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(view).queryByLabelText(/Event name/)).not.toBeInTheDocument();
  });

  it('reads the events again when the server says they changed', async () => {
    const calls = serveWorld({ schedules: [] });
    const realtime = new FakeRealtime();
    function Live() {
      useExhibitLiveSchedules(EXHIBIT);
      return <ExhibitSchedulingTab exhibit={exhibitBody({ role: 'DEVELOPER' })} />;
    }
    renderWithRealtime(<Live />, realtime);
    await screen.findByText(NO_EVENTS_TEXT, { exact: false });
    const reads = () => calls.filter((c) => c.method === 'GET' && c.path === `/exhibit-management/scheduling/${EXHIBIT}`).length;
    await waitFor(() => expect(reads()).toBeGreaterThan(0));
    const before = reads();
    realtime.emit({ type: 'exhibit.schedulesChanged', exhibitId: EXHIBIT });
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
  });
});
