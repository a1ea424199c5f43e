import { eq } from 'drizzle-orm';
import { topicFor, type RealtimeEvent } from '@plinth/shared';
import { SimulatedBoard, type SimulatedBoardOptions } from '@plinth/hardware-sim';
import { hardware, organizations, sites } from '../db/schema.js';
import type { TestServer } from './test-server.js';
import type { TestClient } from './test-client.js';

/** Waits until `check` answers something truthy (polling), or fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An organization, a site and a hardware row, made directly in the database. */
export async function createHardwareRow(server: TestServer, name = 'Board') {
  const db = server.deps.db;
  const [org] = await db.insert(organizations).values({ name: `Org ${Math.random().toString(36).slice(2, 10)}` }).returning();
  const [site] = await db.insert(sites).values({ organizationId: org!.id, name: 'Site' }).returning();
  const [hw] = await db.insert(hardware).values({ siteId: site!.id, name }).returning();
  return { organizationId: org!.id, siteId: site!.id, hardwareId: hw!.id };
}

export async function hardwareRow(server: TestServer, hardwareId: string) {
  const [row] = await server.deps.db.select().from(hardware).where(eq(hardware.id, hardwareId));
  return row!;
}

/** Waits until the board is online and its announce is stored (its peripherals known). */
export async function waitUntilAnnounced(server: TestServer, hardwareId: string): Promise<void> {
  await waitUntil(async () => {
    const row = await hardwareRow(server, hardwareId);
    return row.online && (row.peripherals as unknown[]).length > 0;
  }, 'the board online and announced');
}

/** Creates a token through the API and answers its value. */
export async function createToken(client: TestClient, hardwareId: string, name = 'board token'): Promise<{ id: string; token: string }> {
  const res = await client.post('/auth/hardware', { name, hardwareId });
  if (res.status !== 200) throw new Error(`token create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every hub event of one hardware unit, as a socket subscriber would get them. */
export function recordEvents(server: TestServer, hardwareId: string): { events: RealtimeEvent[]; stop: () => void } {
  const events: RealtimeEvent[] = [];
  const stop = server.deps.hub.subscribe(topicFor('hardware', hardwareId), (event) => events.push(event));
  return { events, stop };
}

/** A simulated board in process; stopped by the returned list's owner. */
export function newBoard(options: Omit<SimulatedBoardOptions, 'log'>): SimulatedBoard {
  return new SimulatedBoard({ heartbeatMs: 200, rebootMs: 100, reconnectMs: 300, ...options, log: process.env.SIM_LOG ? console.log : undefined });
}
