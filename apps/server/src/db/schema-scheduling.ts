import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Frequency, ScheduleManifest } from '@plinth/shared';
import { createdAt, id, ownedBy, updatedAt } from './columns.js';
import { exhibits } from './schema-core.js';

/** What the executor did for one change of an event: its outcome line, and what to restore at the end. */
export type ScheduleStep = {
  /** Index of the change in the event's step list (settings, content settings, op mode, controls). */
  step: number;
  /** 'started': written before the change was made (a crash then leaves it unconfirmed); 'done' after. */
  phase: 'started' | 'done';
  outcome?: string;
  /** The change could not be made (the outcome says why). */
  failed?: boolean;
  /** A setting or op mode to put back at the end: the value it had, and the version the event wrote. */
  restore?: { kind: 'setting' | 'strapiContent' | 'opMode'; id: string; previous: unknown; version: number | null; wrote: unknown };
};

/**
 * Scheduled events (spec 3 Scheduled event): one row per occurrence, a series sharing
 * `recurring_id`. The executor claims due rows with FOR UPDATE SKIP LOCKED and a lease
 * (`lease_until`), so each occurrence runs once on any number of nodes and a node that dies mid-run
 * leaves a lease that expires and is resumed from `steps` (modules/scheduling/schedule-executor.ts).
 */
export const scheduledEvents = pgTable(
  'scheduled_events',
  {
    id: id(),
    exhibitId: ownedBy('exhibit_id', () => exhibits.id),
    recurringId: uuid('recurring_id'),
    name: text('name').notNull(),
    startDate: timestamp('start_date', { withTimezone: true }).notNull(),
    endDate: timestamp('end_date', { withTimezone: true }),
    recurring: boolean('recurring').notNull().default(false),
    frequency: jsonb('frequency').$type<Frequency>(),
    recurringStartDate: timestamp('recurring_start_date', { withTimezone: true }),
    recurringEndDate: timestamp('recurring_end_date', { withTimezone: true }),
    changes: jsonb('changes').$type<ScheduleManifest>().notNull(),
    /** scheduled → running → completed | failed; scheduled → missed. */
    state: text('state', { enum: ['scheduled', 'running', 'completed', 'missed', 'failed'] })
      .notNull()
      .default('scheduled'),
    /** none (no end or nothing to restore) | pending → restoring → restored. */
    endState: text('end_state', { enum: ['none', 'pending', 'restoring', 'restored'] })
      .notNull()
      .default('none'),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    steps: jsonb('steps').$type<ScheduleStep[]>().notNull().default(sql`'[]'::jsonb`),
    ranAt: timestamp('ran_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('scheduled_events_exhibit_start').on(t.exhibitId, t.startDate),
    index('scheduled_events_series').on(t.recurringId),
    index('scheduled_events_due').on(t.startDate).where(sql`state in ('scheduled', 'running')`),
    index('scheduled_events_end_due').on(t.endDate).where(sql`end_state in ('pending', 'restoring')`),
  ],
);
