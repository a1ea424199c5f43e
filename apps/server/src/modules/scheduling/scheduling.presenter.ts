import type { ScheduledEvent } from '@plinth/shared';
import type { ExhibitRuntimeRows } from '../exhibit-runtime/exhibit-runtime.repository.js';
import { presentScheduleChanges } from './schedule-changes.js';
import type { ScheduledEventRow } from './scheduling.repository.js';

/** A stored occurrence as the calendar reads it (spec 3 Scheduled event). */
export function presentScheduledEvent(row: ScheduledEventRow, runtime: ExhibitRuntimeRows): ScheduledEvent {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    exhibitId: row.exhibitId,
    name: row.name,
    startDate: row.startDate.toISOString(),
    endDate: iso(row.endDate),
    recurringStartDate: iso(row.recurringStartDate),
    recurringEndDate: iso(row.recurringEndDate),
    recurring: row.recurring,
    selectedFrequency: row.frequency ?? null,
    frequency: row.frequency ?? null,
    opMode: row.changes.opMode ?? null,
    completed: row.state === 'completed',
    state: row.state,
    endState: row.endState === 'restoring' ? 'pending' : row.endState,
    ranAt: iso(row.ranAt),
    outcome: row.steps.filter((s) => s.phase === 'done' && s.outcome).map((s) => s.outcome!),
    recurringId: row.recurringId,
    manifest: row.changes,
    ...presentScheduleChanges(runtime, row.changes),
    createdBy: row.createdBy,
  };
}
