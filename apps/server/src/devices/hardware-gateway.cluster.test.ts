import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RealtimeEvent, ServerMessage } from '@plinth/shared';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { hardwareConnectionHistory } from '../db/schema.js';
import { createHardwareRow, createToken, hardwareRow, newBoard, waitUntil, waitUntilAnnounced } from '../test/hardware-kit.js';
import { startMosquitto, type RunningMosquitto } from '../test/mosquitto.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type HardwareEvent = Extract<RealtimeEvent, { type: `hardware.${string}` }>;

/** A console socket on one server, subscribed to some boards, keeping every event it receives. */
class ConsoleSocket {
  readonly events: HardwareEvent[] = [];
  private constructor(private readonly ws: WebSocket) {}

  static async open(server: TestServer, client: TestClient, hardwareIds: string[]): Promise<ConsoleSocket> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: client.cookieHeader } });
    const socket = new ConsoleSocket(ws);
    let subscribed = false;
    ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as ServerMessage | RealtimeEvent;
      if (message.type === 'subscribed') subscribed = true;
      if (message.type.startsWith('hardware.')) socket.events.push(message as HardwareEvent);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'subscribe', hardwareIds }));
    await waitUntil(() => subscribed, 'the socket subscribed');
    return socket;
  }

  props(hardwareId: string, value: number): HardwareEvent[] {
    return this.events.filter((e) => e.type === 'hardware.propChanged' && e.hardwareId === hardwareId && e.value === value);
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * The hardware events one server's gateway produced itself (the Redis hub hands every server's
 * events to every server, so the hub's subscribers cannot tell who handled a board message).
 */
function recordPublished(server: TestServer): HardwareEvent[] {
  const published: HardwareEvent[] = [];
  const hub = server.deps.hub;
  const publish = hub.publish.bind(hub);
  hub.publish = (kind, id, message) => {
    if (kind === 'hardware') published.push(message as HardwareEvent);
    publish(kind, id, message);
  };
  return published;
}

/**
 * Two Plinth servers of one deployment: the same PostgreSQL database, the same Mosquitto (board
 * traffic through $share subscriptions) and the same Redis (realtime fan-out).
 */
describe('hardware gateway in a cluster of two servers (Mosquitto $share + Redis)', () => {
  let mosquitto: RunningMosquitto;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let adminA: TestClient;
  let adminB: TestClient;
  let publishedA: HardwareEvent[];
  let publishedB: HardwareEvent[];
  const boards: SimulatedBoard[] = [];
  const sockets: ConsoleSocket[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-cluster-'));
    const env = { MQTT_URL: mosquitto.serverUrl, REDIS_URL, DATA_DIR: dataDir };
    a = await startTestServer(env);
    b = await startTestServer(env, { databaseUrl: a.databaseUrl });
    publishedA = recordPublished(a);
    publishedB = recordPublished(b);
    const admin = await a.signUp({ isPlatformAdmin: true });
    adminA = admin.client;
    adminB = await b.signIn(admin.email, admin.password);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await Promise.all(boards.splice(0).map((board) => board.stop()));
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await mosquitto?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Boards made through server A, connected and announced. */
  const onlineBoards = async (count: number) => {
    const made = [];
    for (let i = 0; i < count; i++) {
      const ids = await createHardwareRow(a, `Board ${i}`);
      const { token } = await createToken(adminA, ids.hardwareId);
      made.push({ ...ids, token });
    }
    return Promise.all(
      made.map(async (ids) => {
        const board = newBoard({ url: mosquitto.url, hardwareId: ids.hardwareId, token: ids.token });
        boards.push(board);
        await board.start();
        await waitUntilAnnounced(a, ids.hardwareId);
        return { ...ids, board };
      }),
    );
  };
  const history = (hardwareId: string, online: boolean) =>
    a.deps.db
      .select()
      .from(hardwareConnectionHistory)
      .where(and(eq(hardwareConnectionHistory.hardwareId, hardwareId), eq(hardwareConnectionHistory.online, online)));

  it('handles each board message on one server only, and every console socket sees it', async () => {
    const list = await onlineBoards(4);
    const ids = list.map((x) => x.hardwareId);
    const onA = await ConsoleSocket.open(a, adminA, ids);
    const onB = await ConsoleSocket.open(b, adminB, ids);
    sockets.push(onA, onB);
    // Both sockets hear the boards (heartbeats) before the changes start.
    await waitUntil(() => ids.every((id) => onB.events.some((e) => e.type === 'hardware.statusChanged' && e.hardwareId === id)), 'heartbeats on B');
    await waitUntil(() => ids.every((id) => onA.events.some((e) => e.type === 'hardware.statusChanged' && e.hardwareId === id)), 'heartbeats on A');

    const changes = list.flatMap(({ hardwareId, board }, i) => [1, 2, 3, 4, 5].map((n) => ({ hardwareId, board, value: 1000 * (i + 1) + n })));
    for (const change of changes) await change.board.changeProp('int1', 'value', change.value);
    for (const socket of [onA, onB]) {
      await waitUntil(() => changes.every((c) => socket.props(c.hardwareId, c.value).length > 0), 'every prop change on the socket');
    }
    // A second round, so that a late duplicate of the first would have arrived by the time it has.
    const again = list.map(({ hardwareId, board }) => ({ hardwareId, board, value: -1 - ids.indexOf(hardwareId) }));
    for (const change of again) await change.board.changeProp('int1', 'value', change.value);
    for (const socket of [onA, onB]) {
      await waitUntil(() => again.every((c) => socket.props(c.hardwareId, c.value).length > 0), 'the second round on the socket');
    }

    for (const change of [...changes, ...again]) {
      const expected = { type: 'hardware.propChanged', hardwareId: change.hardwareId, peripheralId: 'int1', propType: 'int', propName: 'value', value: change.value, periphName: 'Int32' };
      expect(onA.props(change.hardwareId, change.value)).toEqual([expected]);
      expect(onB.props(change.hardwareId, change.value)).toEqual([expected]);
      // Exactly one of the two servers handled the message.
      const handled = [publishedA, publishedB].map(
        (published) => published.filter((e) => e.type === 'hardware.propChanged' && e.hardwareId === change.hardwareId && e.value === change.value).length,
      );
      expect(handled.sort()).toEqual([0, 1]);
    }
    // The traffic really was shared: each server handled some of the changes, and B's socket
    // got the ones A handled (and the other way round).
    const handledBy = (published: HardwareEvent[]) => changes.filter((c) => published.some((e) => e.type === 'hardware.propChanged' && e.hardwareId === c.hardwareId && e.value === c.value));
    expect(handledBy(publishedA).length).toBeGreaterThan(0);
    expect(handledBy(publishedB).length).toBeGreaterThan(0);

    // Many heartbeat windows later (counted in heartbeats, 200 ms each, the window is 2.5 of them),
    // no server has taken a board for silent because the broker gave its traffic to the other.
    await waitUntil(
      () => ids.every((id) => onB.events.filter((e) => e.type === 'hardware.statusChanged' && e.hardwareId === id).length >= 15),
      'fifteen heartbeats of every board',
    );
    // One online row per connect, and the boards are still online (no server timed them out).
    for (const id of ids) {
      expect(await history(id, true)).toHaveLength(1);
      expect(await history(id, false)).toHaveLength(0);
      expect((await hardwareRow(b, id)).online).toBe(true);
    }
    // The online event of each connect reached the sockets through whichever server handled it.
    const onlineHandledBy = (published: HardwareEvent[]) => published.filter((e) => e.type === 'hardware.presenceChanged' && ids.includes(e.hardwareId) && e.online);
    expect(onlineHandledBy(publishedA).length + onlineHandledBy(publishedB).length).toBe(ids.length);
  });

  it('shows a board online on B when A handled its connect', async () => {
    const [first] = await onlineBoards(1);
    const { hardwareId } = first!;
    const onB = await ConsoleSocket.open(b, adminB, [hardwareId]);
    sockets.push(onB);
    // Reconnect until A handles the connect (the broker spreads messages between the servers).
    for (let attempt = 0; ; attempt++) {
      const handledBefore = publishedA.filter((e) => e.type === 'hardware.presenceChanged' && e.hardwareId === hardwareId && e.online).length;
      const seenBefore = onB.events.filter((e) => e.type === 'hardware.presenceChanged' && e.hardwareId === hardwareId && e.online).length;
      // The broker hands the servers the status channel's messages in turn: an extra status now
      // and then changes which server gets the next connect. It names an old connection (epoch 1),
      // so whichever server gets it ignores it: an online status without an epoch could be applied
      // by one server after the other applied the will, and the board would stay online.
      if (attempt % 2 === 1) await first!.board.publish('status', { online: true, epoch: 1 });
      first!.board.drop();
      await waitUntil(async () => !(await hardwareRow(a, hardwareId)).online, 'offline after the will');
      await first!.board.start();
      await waitUntil(async () => (await hardwareRow(a, hardwareId)).online, 'online again');
      await waitUntil(
        () => onB.events.filter((e) => e.type === 'hardware.presenceChanged' && e.hardwareId === hardwareId && e.online).length > seenBefore,
        'the online event on B',
      );
      const handledNow = publishedA.filter((e) => e.type === 'hardware.presenceChanged' && e.hardwareId === hardwareId && e.online).length;
      if (handledNow > handledBefore) break;
      expect(attempt).toBeLessThan(20);
    }
    // Every connect made exactly one online row, every drop one offline row.
    const online = await history(hardwareId, true);
    const offline = await history(hardwareId, false);
    expect(online.length).toBe(offline.length + 1);
    expect(offline.every((row) => row.reason === 'will')).toBe(true);
  });

  it('keeps a board online while the broker hands all its heartbeats to the other server', async () => {
    const [x, y] = await onlineBoards(2);
    x!.board.silence();
    y!.board.silence();
    // Two announces of each board in a row: the broker hands them out in turn, so both servers
    // learn each board's short heartbeat window.
    for (const { board } of [x!, y!]) {
      await board.announce();
      await board.announce();
    }
    // Heartbeats of x and y in strict turn: all of x's reach one server, all of y's the other.
    const beat = { voltage: 5, temp: 30, uptime: 1, exhibitState: 'running', exhibitIP: '10.0.0.7' };
    const beats = (published: HardwareEvent[], id: string) => published.filter((e) => e.type === 'hardware.statusChanged' && e.hardwareId === id).length;
    const startA = beats(publishedA, x!.hardwareId);
    const startB = beats(publishedB, x!.hardwareId);
    let sent = 0;
    // Twelve beats 100 ms apart span more than two of the 500 ms windows.
    while (sent < 12 || beats(publishedA, x!.hardwareId) + beats(publishedB, x!.hardwareId) < startA + startB + 12) {
      await x!.board.publish('heartbeat', beat);
      await y!.board.publish('heartbeat', beat);
      sent += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
    const gotA = beats(publishedA, x!.hardwareId) - startA;
    const gotB = beats(publishedB, x!.hardwareId) - startB;
    expect(Math.min(gotA, gotB)).toBe(0);
    for (const { hardwareId } of [x!, y!]) {
      expect(await history(hardwareId, false)).toHaveLength(0);
      expect((await hardwareRow(a, hardwareId)).online).toBe(true);
    }
  });

  it('names prop changes of peripherals a board announced again through the other server', async () => {
    const [first] = await onlineBoards(1);
    const { hardwareId, board } = first!;
    const onB = await ConsoleSocket.open(b, adminB, [hardwareId]);
    sockets.push(onB);
    // Both servers learn the board's peripherals from a prop change each.
    for (const value of [11, 12]) await board.changeProp('int1', 'value', value);
    await waitUntil(() => onB.props(hardwareId, 11).length && onB.props(hardwareId, 12).length, 'the first prop changes');
    board.silence();
    board.peripherals.push({ id: 'int2', name: 'Counter', type: 'int32', props: [{ ...board.findProp('int1', 'value')!, value: 0 }] });
    await board.announce();
    await waitUntil(async () => ((await hardwareRow(a, hardwareId)).peripherals as { id: string }[]).some((p) => p.id === 'int2'), 'the new peripheral stored');
    for (const value of [21, 22]) await board.changeProp('int2', 'value', value);
    await waitUntil(() => onB.props(hardwareId, 21).length && onB.props(hardwareId, 22).length, 'prop changes of the new peripheral');
    expect(onB.props(hardwareId, 22)).toEqual([{ type: 'hardware.propChanged', hardwareId, peripheralId: 'int2', propType: 'int', propName: 'value', value: 22, periphName: 'Counter' }]);
  });

  it('completes commands sent through either server with the board result', async () => {
    const [first] = await onlineBoards(1);
    const { hardwareId, board } = first!;
    const seen: string[] = [];
    board.on('event', (e) => {
      if (e.kind === 'identify') seen.push('identified');
    });
    for (const admin of [adminA, adminB, adminA, adminB]) {
      const identify = await admin.get(`/hardware-mgmt/hardware/${hardwareId}/identify`);
      expect(identify.status).toBe(200);
      expect(identify.body).toMatchObject({ ok: true });
    }
    expect(seen).toEqual(['identified', 'identified', 'identified', 'identified']);

    let connects = 0;
    board.on('event', (e) => {
      if (e.kind === 'connected') connects += 1;
    });
    const reboot = await adminB.get(`/hardware-mgmt/hardware/${hardwareId}/reboot`);
    expect(reboot.status).toBe(200);
    expect(reboot.body).toMatchObject({ ok: true });
    await waitUntil(() => connects > 0 && board.connected, 'the board back after its reboot');
    await waitUntil(async () => (await hardwareRow(a, hardwareId)).online, 'online after reboot');
    expect(await history(hardwareId, true)).toHaveLength(2);

    // Debug mode switched on through B; prop sets through both servers.
    await b.deps.hardwareGateway.setDebug(hardwareId, true);
    await waitUntil(() => board.debug, 'the board in debug mode');
    const viaA = await adminA.put('/hardware-mgmt/peripheral/relay1/state', { hardwareId, value: 1 });
    expect(viaA.status).toBe(200);
    expect(viaA.body.ok).toBe(true);
    expect(board.findProp('relay1', 'state')!.value).toBe(1);
    const viaB = await adminB.put('/hardware-mgmt/peripheral/pwm1/duty', { hardwareId, value: 17 });
    expect(viaB.status).toBe(200);
    expect(viaB.body.ok).toBe(true);
    expect(board.findProp('pwm1', 'duty')!.value).toBe(17);
  });
});
