import { describe, expect, it } from 'vitest';
import { SCHEDULE_MESSAGES, type ScheduledEvent } from '@plinth/shared';
import {
  changesOfManifest,
  createBodyOf,
  isSeriesWideChange,
  manifestOfChanges,
  movedBodyOf,
  newScheduleValues,
  scheduleFormProblems,
  serverProblemText,
  toWallTime,
  wallTimeToIso,
  withRecurring,
  type ScheduleFormValues,
} from './schedule-form';

const NOW = Date.parse('2026-03-11T10:00:00Z');
const PARIS = 'Europe/Paris';

const form = (over: Partial<ScheduleFormValues> = {}): ScheduleFormValues => ({
  name: 'Night mode',
  start: '2026-03-12T09:00',
  end: '2026-03-12T10:00',
  recurring: false,
  frequency: 'Daily',
  mask: '1111111',
  recurringEnd: '',
  changes: [{ kind: 'opMode', opMode: 'Off' }],
  ...over,
});

describe('schedule form', () => {
  it("reads and writes dates as wall-clock times of the site's zone", () => {
    expect(toWallTime('2026-03-12T08:00:00.000Z', PARIS)).toBe('2026-03-12T09:00');
    expect(wallTimeToIso('2026-03-12T09:00', PARIS)).toBe('2026-03-12T08:00:00.000Z');
    expect(wallTimeToIso('12345-01-01T10:00', PARIS)).toBeNull();
    expect(wallTimeToIso('', PARIS)).toBeNull();
  });

  it('starts a new event 5 minutes from now and ends it 3 months later', () => {
    const values = newScheduleValues('UTC', NOW);
    expect(values.start).toBe('2026-03-11T10:05');
    expect(values.end).toBe('2026-06-11T10:05');
    expect(values.recurring).toBe(false);
  });

  it('names every problem with the spec texts', () => {
    expect(scheduleFormProblems(form(), 'UTC', NOW)).toEqual({});
    expect(scheduleFormProblems(form({ start: '2026-03-10T09:00', end: '' }), 'UTC', NOW).startDate).toBe(SCHEDULE_MESSAGES.startInPast);
    expect(scheduleFormProblems(form({ end: '2026-03-12T08:00' }), 'UTC', NOW).endDate).toBe(SCHEDULE_MESSAGES.endBeforeStart);
    expect(scheduleFormProblems(form({ start: '12345-01-01T10:00' }), 'UTC', NOW).startDate).toBe(SCHEDULE_MESSAGES.yearTooLong);
    expect(scheduleFormProblems(form({ name: '  ' }), 'UTC', NOW).name).toBe(SCHEDULE_MESSAGES.nameRequired);
    expect(scheduleFormProblems(form({ changes: [] }), 'UTC', NOW).changes).toBe(SCHEDULE_MESSAGES.noChanges);
    const recurring = form({ recurring: true, recurringEnd: '2026-03-12T20:00' });
    expect(scheduleFormProblems(recurring, 'UTC', NOW).recurringEndDate).toBe(SCHEDULE_MESSAGES.recurringEndTooSoon);
    expect(scheduleFormProblems({ ...recurring, recurringEnd: '2026-04-12T09:00', frequency: 'Custom', mask: '0000000' }, 'UTC', NOW).mask).toBe(SCHEDULE_MESSAGES.emptyMask);
    // An occurrence that keeps its start is not asked to start in the future.
    expect(scheduleFormProblems(form({ start: '2026-03-10T09:00', end: '' }), 'UTC', NOW, false).startDate).toBeUndefined();
  });

  it('shortens an end more than a day after the start to one hour when Recurring is switched on', () => {
    const on = withRecurring(form({ end: '2026-06-12T09:00' }), true, 'UTC');
    expect(on.end).toBe('2026-03-12T10:00');
    expect(on.recurringEnd).toBe('2026-06-12T09:00');
    expect(withRecurring(form({ end: '2026-03-12T11:00' }), true, 'UTC').end).toBe('2026-03-12T11:00');
  });

  it('builds the POST body: instants, the frequency with its day mask, the manifest', () => {
    const values = form({
      recurring: true,
      recurringEnd: '2026-06-12T09:00',
      frequency: 'Weekly',
      changes: [
        { kind: 'setting', settingId: 'volume', value: 7, listName: null, listId: null },
        { kind: 'control', controlId: 'scenes', itemId: 'night', needsItem: true },
        { kind: 'content', settingId: 'poster', value: 12 },
        { kind: 'opMode', opMode: 'On' },
      ],
    });
    expect(createBodyOf(values, PARIS)).toEqual({
      manifest: {
        controls: [{ controlId: 'scenes', controlGroupItemId: 'night' }],
        settings: [{ settingId: 'volume', value: 7 }],
        strapiContent: [{ strapiContentId: 'poster', value: 12 }],
        opMode: 'On',
      },
      eventName: 'Night mode',
      startDate: '2026-03-12T08:00:00.000Z',
      endDate: '2026-03-12T09:00:00.000Z',
      recurring: true,
      // 12 March 2026 is a Thursday.
      selectedFrequency: { label: 'Weekly', value: 'Weekly', altValue: '0000100' },
      recurringEndDate: '2026-06-12T07:00:00.000Z',
    });
  });

  it('round-trips a stored manifest', () => {
    const manifest = manifestOfChanges([
      { kind: 'setting', settingId: 'title', value: 'x', listName: 'a', listId: 'rooms' },
      { kind: 'control', controlId: 'restart', itemId: null, needsItem: false },
    ]);
    expect(manifestOfChanges(changesOfManifest(manifest))).toEqual(manifest);
  });

  it('calls a change of the frequency, its days, the series end or Recurring series-wide', () => {
    const series = form({ recurring: true, recurringEnd: '2026-06-12T09:00' });
    expect(isSeriesWideChange(series, { ...series, name: 'Other', start: '2026-03-12T09:30' }, 'UTC')).toBe(false);
    expect(isSeriesWideChange(series, { ...series, frequency: 'Weekly' }, 'UTC')).toBe(true);
    expect(isSeriesWideChange(series, { ...series, recurringEnd: '2026-07-12T09:00' }, 'UTC')).toBe(true);
    expect(isSeriesWideChange(series, { ...series, recurring: false }, 'UTC')).toBe(true);
  });

  it("strips the field name from a server's 400 text", () => {
    expect(serverProblemText('startDate: Start date must be in the future.')).toBe('Start date must be in the future.');
    expect(serverProblemText('A recurring event must end before its next occurrence starts.')).toBe('A recurring event must end before its next occurrence starts.');
  });
  it('moves an occurrence to new instants keeping the rest, and its length when the calendar gives no end', () => {
    const event = {
      id: '00000000-0000-4000-8000-000000000101',
      exhibitId: '00000000-0000-4000-8000-0000000000e1',
      name: 'Morning show',
      startDate: '2026-03-12T09:00:00.000Z',
      endDate: '2026-03-12T10:00:00.000Z',
      recurring: true,
      recurringId: '00000000-0000-4000-8000-000000000201',
      frequency: { label: 'Daily', value: 'Daily', altValue: '1111111' },
      selectedFrequency: null,
      recurringEndDate: '2026-06-12T09:00:00.000Z',
      manifest: { controls: [], settings: [], strapiContent: [], opMode: 'On' },
    } as unknown as ScheduledEvent;
    const body = movedBodyOf(event, new Date('2026-03-13T11:00:00Z'), null, true);
    expect(body).toMatchObject({
      eventName: 'Morning show',
      startDate: '2026-03-13T11:00:00.000Z',
      endDate: '2026-03-13T12:00:00.000Z',
      selectedFrequency: { value: 'Daily' },
      recurringEndDate: '2026-06-12T09:00:00.000Z',
      changeAll: true,
      recurringId: '00000000-0000-4000-8000-000000000201',
    });
  });
});
