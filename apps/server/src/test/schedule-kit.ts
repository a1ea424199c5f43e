import { once } from 'node:events';
import WebSocket from 'ws';
import type { GatewayMessage } from '@plinth/shared';
import type { NewScheduledEvent, ScheduleStep } from '../modules/scheduling/scheduling.repository.js';
import { waitUntil } from './hardware-kit.js';

/*
 * What the executor's tests share: an exhibit SDK connection that can be opened against any node
 * (and again after that node died), the rows of many exhibits, and the exactly-once checks on `steps`.
 */

/** A manifest with `controls` single controls c0…c(n-1) and two settings. */
export function scheduleTestManifest(controls: number) {
  return {
    settings: [
      { id: 'kiosk_name', type: 'TextInput', default: 'Lobby' },
      { id: 'level', type: 'IntegerInput', default: 0, min: 0, max: 100_000 },
    ],
    controls: Array.from({ length: controls }, (_, i) => ({ id: `c${i}`, display: `Control ${i}` })),
  };
}

/** An SDK connection (raw protocol) that keeps every message it received, across reconnects. */
export type SdkConnection = {
  exhibitId: string;
  messages: GatewayMessage[];
  /** Connects (again) to the node at `url`: authenticates, sends the manifest, waits for `exhibit.synced`. */
  connect: (url: string) => Promise<void>;
  close: () => void;
};

/** An SDK for the exhibit, authenticating with `token` (an exhibit token from POST /auth/exhibit). */
export function sdkConnection(exhibit: { exhibitId: string; token: string; manifest: unknown }): SdkConnection {
  const messages: GatewayMessage[] = [];
  let socket: WebSocket | null = null;
  const connect = async (url: string) => {
    socket?.close();
    const res = await fetch(`${url}/api/v1/auth/exhibit/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exhibitId: exhibit.exhibitId, token: exhibit.token }),
    });
    if (res.status !== 200) throw new Error(`authenticate: ${res.status} ${await res.text()}`);
    const { credential } = (await res.json()) as { credential: string };
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?client=exhibit`);
    socket = ws;
    const from = messages.length;
    ws.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as GatewayMessage));
    // A socket cut by a dying node errors; the test reconnects it, so the error is only noted.
    ws.on('error', () => undefined);
    await once(ws, 'open');
    ws.send(JSON.stringify({ type: 'auth', exhibitId: exhibit.exhibitId, token: credential }));
    await waitUntil(() => messages.slice(from).some((m) => m.type === 'auth.ok'), 'auth.ok', 20_000);
    ws.send(JSON.stringify({ type: 'manifest', requestId: 'm', manifest: exhibit.manifest }));
    await waitUntil(() => messages.slice(from).some((m) => m.type === 'exhibit.synced'), 'exhibit.synced', 20_000);
  };
  return { exhibitId: exhibit.exhibitId, messages, connect, close: () => socket?.close() };
}

/** How many times each control id reached the SDK. */
export function controlsFired(messages: GatewayMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of messages) if (m.type === 'control.fired') counts.set(m.controlId, (counts.get(m.controlId) ?? 0) + 1);
  return counts;
}

/** `count` occurrences starting at `at`, spread over the exhibits in turn: each sets `level` and fires its own control. */
export function dueOccurrences(exhibitIds: string[], plan: { count: number; at: Date }): NewScheduledEvent[] {
  return Array.from({ length: plan.count }, (_, i) => ({
    exhibitId: exhibitIds[i % exhibitIds.length]!,
    name: `Occurrence ${i}`,
    startDate: plan.at,
    endDate: null,
    recurring: false,
    changes: {
      settings: [{ settingId: 'level', value: i }],
      strapiContent: [],
      controls: [{ controlId: `c${Math.floor(i / exhibitIds.length)}` }],
      opMode: null,
    },
  }));
}

/** The step indexes recorded 'done' more than once (an exactly-once run has none). */
export function stepsDoneTwice(steps: ScheduleStep[]): number[] {
  const seen = new Set<number>();
  const twice: number[] = [];
  for (const s of steps.filter((x) => x.phase === 'done')) {
    if (seen.has(s.step)) twice.push(s.step);
    seen.add(s.step);
  }
  return twice;
}

/** The step indexes recorded 'done', in order. */
export function stepsDone(steps: ScheduleStep[]): number[] {
  return steps
    .filter((s) => s.phase === 'done')
    .map((s) => s.step)
    .sort((a, b) => a - b);
}
