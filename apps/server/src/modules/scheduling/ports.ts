/** What one scheduler pass did. */
export type SchedulerRun = { started: number; ended: number; missed: number };

/** A node's scheduled-event executor (schedule-executor.ts), as the rest of the server sees it. */
export type Scheduler = {
  /** This node's name in leases. */
  node: string;
  /** Runs what is due now (the poll does the same); resolves with what it did. */
  runNow: () => Promise<SchedulerRun>;
  stop: () => Promise<void>;
};
