import { MISSED_AFTER_MS, type OpMode, type SettingValue } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { startPollingWorker } from '../../lib/polling-worker.js';
import { SERVER_ITEM_ACCESS } from '../access/item-access.js';
import { findExhibitState } from '../exhibit-runtime/exhibit-runtime.repository.js';
import { fireControl, setOpMode } from '../exhibit-runtime/exhibit-runtime.service.js';
import { listSettingCandidates } from '../exhibit-runtime/exhibit-settings.repository.js';
import { saveSetting, saveStrapiContent } from '../exhibit-runtime/exhibit-settings.service.js';
import { recordExhibit, shownValue } from '../logging/records.js';
import { announceSchedulesChanged } from './scheduling.service.js';
import type { Scheduler, SchedulerRun } from './ports.js';
import { appendStep, claimDueEnds, claimDueStarts, countDueEvents, finishRun, markMissed, type ScheduledEventRow, type ScheduleStep } from './scheduling.repository.js';

/**
 * Runs scheduled events on time, exactly once, on any number of nodes (docs/decisions.md,
 * Scheduling). Every node polls (SCHEDULER_POLL_MS); a due occurrence is claimed in one statement
 * with FOR UPDATE SKIP LOCKED and a lease (SCHEDULER_LEASE_MS), so no two nodes take it. Each change
 * of the event is a step written before ('started') and after ('done') it is made: a node that
 * dies mid-run leaves its lease to expire, and the node that takes the row over skips what was
 * done, redoes the idempotent setting and op-mode writes that were under way, and does not fire
 * again a control whose delivery was not confirmed (it is reported as such). Occurrences whose
 * time passed more than 5 minutes ago while no node ran are marked missed, never run late.
 */

/** A change of an event, in the order they are made: settings, content settings, op mode, then controls. */
type Step =
  | { kind: 'setting'; settingId: string; value: SettingValue; listName?: string | null; listId?: string | null }
  | { kind: 'strapiContent'; settingId: string; value: string | number | null }
  | { kind: 'opMode'; mode: OpMode }
  | { kind: 'control'; controlId: string; itemId?: string | null };

function stepsOf(row: ScheduledEventRow): Step[] {
  const c = row.changes;
  return [
    ...c.settings.map((s): Step => ({ kind: 'setting', settingId: s.settingId, value: s.value, listName: s.listName, listId: s.listId })),
    ...c.strapiContent.map((s): Step => ({ kind: 'strapiContent', settingId: s.strapiContentId, value: s.value })),
    ...(c.opMode ? [{ kind: 'opMode', mode: c.opMode } as Step] : []),
    ...c.controls.map((s): Step => ({ kind: 'control', controlId: s.controlId, itemId: s.controlGroupItemId })),
  ];
}

/** End steps are numbered after the start's, so both live in `steps`. */
const END_STEP_BASE = 10_000;

type Hold = { id: string; node: string };


/** How many occurrences a node takes per claim, and how many exhibits it runs at once. */
const CLAIM_BATCH = 50;
const PARALLEL_EXHIBITS = 8;

export function startScheduler(deps: AppDeps, options: { node?: string; pollMs?: number } = {}): Scheduler {
  deps.metrics.setSource('scheduledEventsDue', () => countDueEvents(deps.db, deps.clock.now()));
  return startPollingWorker({
    what: 'scheduler',
    pollMs: options.pollMs ?? deps.config.SCHEDULER_POLL_MS,
    logger: deps.logger,
    node: options.node,
    pass: (node) => runDue(deps, node),
  });
}

/** One pass: mark the missed, then run due starts and ends until none is left. */
export async function runDue(deps: AppDeps, node: string): Promise<SchedulerRun> {
  const result: SchedulerRun = { started: 0, ended: 0, missed: 0 };
  const now = deps.clock.now();
  const missed = await markMissed(deps.db, new Date(now.getTime() - MISSED_AFTER_MS));
  for (const m of missed) {
    recordExhibit(deps.logs, m.exhibitId, {
      eventType: 'schedule',
      level: 'warn',
      message: `Scheduled event "${m.name}" of ${m.startDate.toISOString()} missed: no server was running at its time (more than 5 minutes ago)`,
    });
  }
  result.missed = missed.length;
  announceAll(deps, missed.map((m) => m.exhibitId));
  for (;;) {
    const at = deps.clock.now();
    const claim = { now: at, node, leaseUntil: leaseEnd(deps, at), limit: CLAIM_BATCH, notBefore: new Date(at.getTime() - MISSED_AFTER_MS) };
    const starts = await claimDueStarts(deps.db, claim);
    const ends = starts.length < CLAIM_BATCH ? await claimDueEnds(deps.db, claim) : [];
    if (!starts.length && !ends.length) break;
    await runPerExhibit(starts, (row) => runStart(deps, row, node));
    await runPerExhibit(ends, (row) => runEnd(deps, row, node));
    result.started += starts.length;
    result.ended += ends.length;
    announceAll(deps, [...starts, ...ends].map((r) => r.exhibitId));
  }
  return result;
}

function leaseEnd(deps: AppDeps, from: Date = deps.clock.now()): Date {
  return new Date(from.getTime() + deps.config.SCHEDULER_LEASE_MS);
}

function announceAll(deps: AppDeps, exhibitIds: string[]): void {
  for (const id of new Set(exhibitIds)) announceSchedulesChanged(deps, id);
}

/** Runs the rows of each exhibit in start order, up to PARALLEL_EXHIBITS exhibits at once. */
async function runPerExhibit(rows: ScheduledEventRow[], run: (row: ScheduledEventRow) => Promise<void>): Promise<void> {
  const byExhibit = new Map<string, ScheduledEventRow[]>();
  for (const row of rows) byExhibit.set(row.exhibitId, [...(byExhibit.get(row.exhibitId) ?? []), row]);
  const queues = [...byExhibit.values()];
  const worker = async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      for (const row of queue) {
        await run(row);
        // A pass is one chain of awaits; let HTTP, sockets and timers in between its rows
        // (needed while PGlite answered in this thread; it has its own now: db/pglite-thread.ts).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_EXHIBITS, queues.length) }, worker));
}

/** The reason an action failed, for the outcome line. */
function reason(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return 'the server could not do it';
}

type Applied = { outcome: string; ok: boolean; restore?: ScheduleStep['restore'] };

/** Makes one change now: what to say, and what to put back at the end. */
async function apply(deps: AppDeps, row: ScheduledEventRow, run: { step: Step; prior: ScheduleStep | undefined }): Promise<Applied> {
  const { step, prior } = run;
  const by = `the schedule "${row.name}"`;
  const exhibitId = row.exhibitId;
  switch (step.kind) {
    case 'setting':
    case 'strapiContent': {
      const where = step.kind === 'setting' && step.listName ? ` of "${step.listName}"` : '';
      const current = step.kind === 'setting' && step.listName ? undefined : (await listSettingCandidates(deps.db, exhibitId, { settingKey: step.settingId, inList: false }))[0];
      // A step under way when a node died keeps the value it found before (not its own).
      const previous = prior?.restore ? prior.restore.previous : current?.value;
      try {
        const { version } =
          step.kind === 'setting'
            ? await saveSetting(deps, exhibitId, { settingId: step.settingId, value: step.value, listName: step.listName ?? undefined, listId: step.listId ?? undefined, by, access: SERVER_ITEM_ACCESS })
            : await saveStrapiContent(deps, exhibitId, { settingId: step.settingId, contentId: step.value, by, access: SERVER_ITEM_ACCESS });
        const restore = current && version !== null ? { kind: step.kind, id: step.settingId, previous, version, wrote: step.value } : undefined;
        return { ok: true, outcome: `Setting "${step.settingId}"${where}: ${shownValue(step.value)}`, restore };
      } catch (error) {
        return { ok: false, outcome: `Setting "${step.settingId}"${where}: failed (${reason(error)})` };
      }
    }
    case 'opMode': {
      const state = await findExhibitState(deps.db, exhibitId);
      const previous = prior?.restore ? prior.restore.previous : state?.opMode;
      try {
        await setOpMode(deps, exhibitId, { mode: step.mode, by });
        return { ok: true, outcome: `Op mode: ${step.mode}`, restore: { kind: 'opMode', id: 'opMode', previous, version: null, wrote: step.mode } };
      } catch (error) {
        return { ok: false, outcome: `Op mode: failed (${reason(error)})` };
      }
    }
    case 'control': {
      const named = step.itemId ? `${step.controlId}/${step.itemId}` : step.controlId;
      try {
        await fireControl(deps, exhibitId, { controlId: step.controlId, itemId: step.itemId ?? undefined, by, access: SERVER_ITEM_ACCESS });
        return { ok: true, outcome: `Control "${named}": delivered` };
      } catch (error) {
        return { ok: false, outcome: `Control "${named}": failed (${reason(error)})` };
      }
    }
  }
}

/** What a setting (not in a list) or the op mode is before the step changes it, as its 'started' record keeps it. */
async function valueBefore(deps: AppDeps, exhibitId: string, step: Step): Promise<Pick<ScheduleStep, 'restore'>> {
  if (step.kind === 'opMode') {
    const state = await findExhibitState(deps.db, exhibitId);
    return state ? { restore: { kind: 'opMode', id: 'opMode', previous: state.opMode, version: null, wrote: step.mode } } : {};
  }
  if (step.kind === 'control' || (step.kind === 'setting' && step.listName)) return {};
  const [current] = await listSettingCandidates(deps.db, exhibitId, { settingKey: step.settingId, inList: false });
  return current ? { restore: { kind: step.kind, id: step.settingId, previous: current.value, version: null, wrote: step.value } } : {};
}

/** The start of an occurrence: each change once, recorded as it goes. */
async function runStart(deps: AppDeps, row: ScheduledEventRow, node: string): Promise<void> {
  const hold: Hold = { id: row.id, node };
  const steps = stepsOf(row);
  const done = new Map<number, ScheduleStep>();
  const started = new Map<number, ScheduleStep>();
  for (const s of row.steps) (s.phase === 'done' ? done : started).set(s.step, s);
  const records: ScheduleStep[] = [...done.values()];
  for (let i = 0; i < steps.length; i++) {
    if (done.has(i)) continue;
    const step = steps[i]!;
    const resumed = started.get(i);
    if (resumed && step.kind === 'control') {
      // It may have reached the exhibit before the node running it died: never fire it twice.
      const record: ScheduleStep = { step: i, phase: 'done', outcome: `Control "${step.controlId}": not confirmed (the server running it stopped)` };
      if (!(await appendStep(deps.db, { ...hold, leaseUntil: leaseEnd(deps) }, record))) return;
      records.push(record);
      continue;
    }
    // The value found before the change goes into the 'started' record: a node resuming the step
    // after this one died must restore that value, not the one this node may already have written.
    const prior: ScheduleStep = resumed ?? { step: i, phase: 'started', ...(await valueBefore(deps, row.exhibitId, step)) };
    if (!resumed && !(await appendStep(deps.db, { ...hold, leaseUntil: leaseEnd(deps) }, prior))) return;
    const applied = await apply(deps, row, { step, prior });
    const record: ScheduleStep = { step: i, phase: 'done', outcome: applied.outcome, ...(applied.restore ? { restore: applied.restore } : {}), ...(applied.ok ? {} : { failed: true }) };
    if (!(await appendStep(deps.db, { ...hold, leaseUntil: leaseEnd(deps) }, record))) return;
    records.push(record);
  }
  const anyApplied = records.some((r) => !r.failed) || steps.length === 0;
  const restorable = records.some((r) => r.restore);
  const ranAt = deps.clock.now();
  const finished = await finishRun(deps.db, hold, {
    state: anyApplied ? 'completed' : 'failed',
    endState: row.endDate && restorable ? 'pending' : 'none',
    ranAt,
  });
  if (!finished) return;
  const late = Math.max(0, ranAt.getTime() - row.startDate.getTime());
  const lines = records.map((r) => r.outcome).filter(Boolean);
  recordExhibit(deps.logs, row.exhibitId, {
    eventType: 'schedule',
    level: records.some((r) => r.failed) ? 'warn' : 'info',
    message: `Scheduled event "${row.name}" ran (${late} ms after its time): ${lines.length ? lines.join('; ') : 'nothing to apply'}`,
  });
}

/** The end of an occurrence: what it changed goes back, unless someone changed it since. */
async function runEnd(deps: AppDeps, row: ScheduledEventRow, node: string): Promise<void> {
  const hold: Hold = { id: row.id, node };
  const by = `the end of the schedule "${row.name}"`;
  const restores = row.steps.filter((s) => s.phase === 'done' && s.step < END_STEP_BASE && s.restore).map((s) => s.restore!);
  const doneEnds = new Set(row.steps.filter((s) => s.step >= END_STEP_BASE).map((s) => s.step));
  const lines: string[] = [];
  for (let i = 0; i < restores.length; i++) {
    if (doneEnds.has(END_STEP_BASE + i)) continue;
    const restore = restores[i]!;
    const outcome = await putBack(deps, row.exhibitId, { restore, by });
    lines.push(outcome);
    if (!(await appendStep(deps.db, { ...hold, leaseUntil: leaseEnd(deps) }, { step: END_STEP_BASE + i, phase: 'done', outcome }))) return;
  }
  if (!(await finishRun(deps.db, hold, { endState: 'restored' }))) return;
  recordExhibit(deps.logs, row.exhibitId, { eventType: 'schedule', message: `Scheduled event "${row.name}" ended: ${lines.length ? lines.join('; ') : 'nothing to put back'}` });
}

/** Puts one change back when it is still the event's (the setting's version, or the op mode it set). */
async function putBack(deps: AppDeps, exhibitId: string, undo: { restore: NonNullable<ScheduleStep['restore']>; by: string }): Promise<string> {
  const { restore, by } = undo;
  try {
    if (restore.kind === 'opMode') {
      const state = await findExhibitState(deps.db, exhibitId);
      if (!state || state.opMode !== restore.wrote) return 'Op mode: kept (changed since)';
      await setOpMode(deps, exhibitId, { mode: restore.previous as OpMode, by });
      return `Op mode: back to ${String(restore.previous)}`;
    }
    const [current] = await listSettingCandidates(deps.db, exhibitId, { settingKey: restore.id, inList: false });
    if (!current || current.version !== restore.version) return `Setting "${restore.id}": kept (changed since)`;
    if (restore.kind === 'strapiContent') {
      await saveStrapiContent(deps, exhibitId, { settingId: restore.id, contentId: restore.previous as string | number | null, by, access: SERVER_ITEM_ACCESS });
    } else {
      await saveSetting(deps, exhibitId, { settingId: restore.id, value: restore.previous, by, access: SERVER_ITEM_ACCESS });
    }
    return `Setting "${restore.id}": back to ${shownValue(restore.previous)}`;
  } catch (error) {
    return `Setting "${restore.id}": could not be put back (${reason(error)})`;
  }
}
