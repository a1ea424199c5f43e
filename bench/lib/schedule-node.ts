// One Plinth server instance for the scheduling benchmark (bench/schedules.bench.ts), forked with an
// IPC channel: it starts the server in this process (startServer, from the sources through tsx)
// with the configuration in its environment, so that on PGlite, which one process holds alone,
// the benchmark can still store manifests, insert occurrences and read the results, by asking
// this process. On PostgreSQL every node is such a process; the first one also prepares the data.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ManifestSchema, ScheduleManifestSchema, type ManifestInput } from '@plinth/shared';
import { exhibitSettings, scheduledEvents } from '../../apps/server/src/db/schema.js';
import type { AppDeps } from '../../apps/server/src/deps.js';
import { createUser } from '../../apps/server/src/modules/auth/users.service.js';
import { ingestManifest } from '../../apps/server/src/modules/exhibit-runtime/manifest-ingest.service.js';
import { countByState, insertScheduledEvents, type NewScheduledEvent } from '../../apps/server/src/modules/scheduling/scheduling.repository.js';
import type { RunningServer } from '../../apps/server/src/server.js';
import { serveOverIpc } from './ipc-node.js';
import { mapLimit } from './stats.js';

/** The setting every occurrence changes. */
export const LEVEL_SETTING = 'level';

export const SCHEDULE_MANIFEST: ManifestInput = {
  statuses: [{ id: 'playing', type: 'String', display: 'Playing' }],
  settings: [{ id: LEVEL_SETTING, type: 'IntegerInput', display: 'Level', default: -1, min: -1, max: 10_000_000 }],
};

/** What the benchmark stores: the occurrences' start times and the exhibit each one targets. */
export type Prepare = { exhibitIds: string[]; occurrences: number; startAtMs: number; spreadMs: number };

/** One occurrence as read back: how late it ran, its state, and the most 'done' records of one step. */
export type OccurrenceResult = { exhibitId: string; startMs: number; ranAtMs: number | null; state: string; maxDonePerStep: number };

/** Occurrences by state, and those running now by the node holding them. */
export type Counts = { states: Record<string, number>; runningByNode: Record<string, number> };

export type ToNode =
  | { id: number; type: 'createAdmin'; email: string; password: string }
  | { id: number; type: 'storeManifests'; exhibitIds: string[] }
  | { id: number; type: 'insertOccurrences'; prepare: Prepare }
  | { id: number; type: 'versions'; exhibitIds: string[] }
  | { id: number; type: 'counts'; exhibitIds: string[] }
  | { id: number; type: 'collect'; exhibitIds: string[] }
  | { id: number; type: 'close' };

export type { FromNode } from './ipc-node.js';

/** Occurrence `index` targets exhibit `index % exhibits` and starts `index * spread / occurrences` after the first. */
export function occurrenceRows(prepare: Prepare): NewScheduledEvent[] {
  const { exhibitIds, occurrences, startAtMs, spreadMs } = prepare;
  return Array.from({ length: occurrences }, (_, index) => ({
    exhibitId: exhibitIds[index % exhibitIds.length]!,
    name: `Bench occurrence ${index}`,
    startDate: new Date(startAtMs + Math.floor((index * spreadMs) / occurrences)),
    changes: ScheduleManifestSchema.parse({ settings: [{ settingId: LEVEL_SETTING, value: index }] }),
    createdBy: 'bench',
  }));
}

/** The version of each exhibit's `level` setting. */
async function levelVersions(deps: AppDeps, exhibitIds: string[]): Promise<Record<string, number>> {
  const rows = await deps.db
    .select({ exhibitId: exhibitSettings.exhibitId, version: exhibitSettings.version })
    .from(exhibitSettings)
    .where(and(inArray(exhibitSettings.exhibitId, exhibitIds), eq(exhibitSettings.manifestId, LEVEL_SETTING), eq(exhibitSettings.listManifestId, '')));
  return Object.fromEntries(rows.map((r) => [r.exhibitId, r.version]));
}

/** Occurrences running now, by the node holding them (each node's share of the work). */
async function runningByNode(deps: AppDeps): Promise<Record<string, number>> {
  const e = scheduledEvents;
  const rows = await deps.db
    .select({ node: e.leaseOwner, n: sql<number>`count(*)::int` })
    .from(e)
    .where(eq(e.state, 'running'))
    .groupBy(e.leaseOwner);
  return Object.fromEntries(rows.map((r) => [r.node ?? '', r.n]));
}

async function collect(deps: AppDeps, exhibitIds: string[]): Promise<OccurrenceResult[]> {
  const e = scheduledEvents;
  const rows = await deps.db
    .select({ exhibitId: e.exhibitId, startDate: e.startDate, ranAt: e.ranAt, state: e.state, steps: e.steps })
    .from(e)
    .where(inArray(e.exhibitId, exhibitIds));
  return rows.map((row) => {
    const done = new Map<number, number>();
    for (const step of row.steps) if (step.phase === 'done') done.set(step.step, (done.get(step.step) ?? 0) + 1);
    return {
      exhibitId: row.exhibitId,
      startMs: row.startDate.getTime(),
      ranAtMs: row.ranAt ? row.ranAt.getTime() : null,
      state: row.state,
      maxDonePerStep: Math.max(0, ...done.values()),
    };
  });
}

async function handle(server: RunningServer, message: ToNode): Promise<unknown> {
  const deps = server.deps;
  switch (message.type) {
    case 'createAdmin':
      await createUser(deps, { email: message.email, password: message.password, firstName: 'Bench', lastName: 'Admin', isPlatformAdmin: true });
      return null;
    case 'storeManifests': {
      const manifest = ManifestSchema.parse(SCHEDULE_MANIFEST);
      await mapLimit(message.exhibitIds, 8, (exhibitId) => ingestManifest(deps, exhibitId, manifest));
      return null;
    }
    case 'insertOccurrences': {
      const rows = occurrenceRows(message.prepare);
      // One statement per 1,000 rows keeps each under PostgreSQL's 65,535 parameters.
      for (let i = 0; i < rows.length; i += 1000) await insertScheduledEvents(deps.db, rows.slice(i, i + 1000));
      return rows.length;
    }
    case 'versions':
      return levelVersions(deps, message.exhibitIds);
    case 'counts':
      return { states: await countByState(deps.db, message.exhibitIds), runningByNode: await runningByNode(deps) };
    case 'collect':
      return collect(deps, message.exhibitIds);
    case 'close':
      await server.close();
      return null;
  }
}

serveOverIpc(handle);
