// What the people benchmark (bench/people.bench.ts) and its server instances
// (bench/lib/people-node.ts) say to each other over IPC. Kept apart from people-node.ts, which
// starts a server when imported.
import type { Role } from '@plinth/shared';

export const BENCH_PASSWORD = 'Bench-Passw0rd!';

/** The mails to queue: `causes` notices to each of `users` users of one exhibit, all due at `dueAtMs`. */
export type MailPlan = { exhibitId: string; userIds: string[]; causes: number; dueAtMs: number };

export type ToNode =
  | { id: number; type: 'createUser'; email: string; admin: boolean }
  | { id: number; type: 'createExhibit' }
  | { id: number; type: 'grant'; exhibitId: string; userId: string; role: Role }
  | { id: number; type: 'subscribe'; exhibitId: string; userId: string }
  | { id: number; type: 'hideStatuses'; exhibitId: string; userId: string; statusIds: string[] }
  | { id: number; type: 'queueMails'; plan: MailPlan }
  | { id: number; type: 'outboxStates'; exhibitId: string }
  | { id: number; type: 'close' };

export type { FromNode } from './ipc-node.js';

/** The marker of mail `cause` in its subject (through the headline): what the benchmark counts by. */
export function mailMarker(cause: number): string {
  return `bench mail #${cause}`;
}
