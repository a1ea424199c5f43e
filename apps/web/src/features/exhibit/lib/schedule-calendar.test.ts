import { describe, expect, it } from 'vitest';
import { scheduledEvent as event } from '../test/fixtures';
import { formatScheduleDate, frequencyText, SCHEDULE_STATE_STYLES, toCalendarEvent } from './schedule-calendar';

describe('schedule calendar', () => {
  it('draws completed events grey, waiting ones orange, failed red and missed outlined red and named', () => {
    const scheduled = toCalendarEvent(event({}), true);
    expect(scheduled).toMatchObject({ title: 'Morning show', backgroundColor: SCHEDULE_STATE_STYLES.scheduled.background, editable: true });
    expect(scheduled.backgroundColor).toBe('#fd7e14');
    expect(toCalendarEvent(event({ state: 'completed', completed: true }), true)).toMatchObject({ backgroundColor: '#868e96', editable: false });
    expect(toCalendarEvent(event({ state: 'failed' }), true)).toMatchObject({ title: 'Morning show (Failed)', backgroundColor: '#e03131' });
    const missed = toCalendarEvent(event({ state: 'missed' }), true);
    expect(missed).toMatchObject({ title: 'Morning show (Missed)', borderColor: '#e03131', classNames: ['schedule-missed'], editable: false });
  });

  it('lets only canModify users move events that have not run', () => {
    expect(toCalendarEvent(event({}), false).editable).toBe(false);
    expect(toCalendarEvent(event({ state: 'running' }), true).editable).toBe(false);
  });

  it('reads frequencies and dates as a person does', () => {
    expect(frequencyText(null)).toBe('Does not repeat');
    expect(frequencyText({ label: 'Daily', value: 'Daily', altValue: '1111111' })).toBe('Daily');
    expect(frequencyText({ label: 'Custom', value: 'Custom', altValue: '0100010' })).toBe('Custom: Monday, Friday');
    expect(formatScheduleDate('2026-03-12T09:00:00.000Z', 'Europe/Paris')).toBe('03-12-2026 10:00 am');
  });
});
