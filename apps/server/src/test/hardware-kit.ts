import type { RealtimeEvent } from '@plinth/shared';
import { SimulatedBoard, type SimulatedBoardOptions } from '@plinth/hardware-sim';
import { findHardwareRecord } from '../modules/hardware/hardware.repository.js';
import { createHardware, createOrganization, createSite } from './factories.js';
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

/** An organization, a site and a hardware unit in it (through the factories). */
export async function createHardwareRow(server: TestServer, name = 'Board') {
  const db = server.deps.db;
  const organization = await createOrganization(db);
  const site = await createSite(db, organization.id, 'Site');
  const board = await createHardware(db, site.id, name);
  return { organizationId: organization.id, siteId: site.id, hardwareId: board.id };
}

/** The hardware unit as stored now (with its site and organization). */
export async function hardwareRow(server: Pick<TestServer, 'deps'>, hardwareId: string) {
  return (await findHardwareRecord(server.deps.db, hardwareId))!;
}

/** Waits until the board is online and its announce is stored (its peripherals known). */
export async function waitUntilAnnounced(server: Pick<TestServer, 'deps'>, hardwareId: string): Promise<void> {
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
  const stop = server.deps.hub.subscribe('hardware', hardwareId, (event) => events.push(event));
  return { events, stop };
}

/** A simulated board in process; stopped by the returned list's owner. */
export function newBoard(options: Omit<SimulatedBoardOptions, 'log'>): SimulatedBoard {
  return new SimulatedBoard({ heartbeatMs: 200, rebootMs: 100, reconnectMs: 300, ...options, log: process.env.SIM_LOG ? console.log : undefined });
}
