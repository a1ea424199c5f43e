// Board-fleet processes (bench/hardware-fleet.ts): many simulated boards, one MQTT connection
// each, in child processes driven over the fork IPC channel (bench/hardware-protocol.ts). Used by
// the hardware benchmark and the console benchmark's heartbeat part.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { hashSecret, newSecret } from '../../apps/server/src/lib/crypto.js';
import type { FleetBoard, FromFleet, ToFleet } from '../hardware-protocol.js';
import type { ApiClient } from './api-client.js';
import { stopLoadProcesses } from './load-processes.js';
import { ROOT } from './plinth-server.js';
import { mapLimit } from './stats.js';

export type Fleet = {
  child: ChildProcess;
  last: Extract<FromFleet, { type: 'progress' }> | null;
  sent: Extract<FromFleet, { type: 'sent' }> | null;
};

export function startFleets(count: number): Fleet[] {
  return Array.from({ length: count }, () => {
    const child = fork(path.join(ROOT, 'bench/hardware-fleet.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const fleet: Fleet = { child, last: null, sent: null };
    child.on('message', (message: FromFleet) => {
      if (message.type === 'progress') fleet.last = message;
      if (message.type === 'sent') fleet.sent = message;
    });
    return fleet;
  });
}

export function tellFleet(fleet: Fleet, message: ToFleet): void {
  if (fleet.child.connected) fleet.child.send(message);
}

export function fleetTotals(fleets: Fleet[]) {
  const sum = (pick: (g: NonNullable<Fleet['last']>) => number) => fleets.reduce((n, g) => n + (g.last ? pick(g.last) : 0), 0);
  return {
    ready: sum((g) => g.ready),
    failed: sum((g) => g.failed),
    connected: sum((g) => g.connected),
    disconnects: sum((g) => g.disconnects),
    reconnects: sum((g) => g.reconnects),
    errors: [...new Set(fleets.flatMap((g) => g.last?.errors ?? []))],
  };
}

export function stopFleets(fleets: Fleet[]): Promise<void> {
  return stopLoadProcesses(
    fleets.map((f) => f.child),
    { type: 'close' } satisfies ToFleet,
    30_000,
  );
}


/**
 * One token for each of these boards, straight into the database (hardware_tokens rows holding the
 * SHA-256 the server checks, hashSecret): 10,000 boards take about a second this way.
 */
export async function createBoardTokens(client: pg.Client, hardwareIds: string[]): Promise<FleetBoard[]> {
  const boards = hardwareIds.map((id) => ({ id, token: newSecret() }));
  await client.query(
    "insert into hardware_tokens (hardware_id, name, token_hash) select * from unnest($1::uuid[], array_fill('benchmark'::text, array[$3::int]), $2::text[])",
    [boards.map((b) => b.id), boards.map((b) => hashSecret(b.token)), boards.length],
  );
  return boards;
}

/** Names for `count` boards that sort in order: `Board 0001` to `Board 1000`. */
export function boardNames(count: number): string[] {
  const width = String(count).length;
  return Array.from({ length: count }, (_, i) => `Board ${String(i + 1).padStart(width, '0')}`);
}

/**
 * `count` boards on the site with one token each, through the REST API as `api`'s user (the only
 * way in on PGlite, which the server holds alone), 8 calls at a time: the server's database is
 * the limit, more at once do not go faster (10,000 boards take about 95 s on PGlite).
 */
export function createBoardsThroughApi(api: ApiClient, siteId: string, count: number): Promise<FleetBoard[]> {
  return mapLimit(boardNames(count), 8, async (name) => {
    const hardware = await api<{ id: string }>('POST', '/hardware-mgmt/hardware', { name, siteId });
    const token = await api<{ token: string }>('POST', '/auth/hardware', { name: 'benchmark', hardwareId: hardware.id });
    return { id: hardware.id, token: token.token };
  });
}
