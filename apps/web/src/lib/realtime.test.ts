import { QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { ClientMessageSchema, CONSOLE_CLOSE, SOCKET_MAX_MESSAGE_BYTES, type ClientMessage, type Exhibit, type Hardware } from '@plinth/shared';
import { queryKeys } from './query-keys';
import { RealtimeClient } from './realtime';
import { useHardwareWithStatus } from './hardware-live-status';
import { applyToCache } from './realtime-cache';

/** A real socket server on a free port, with the Plinth server's frame limit; the console's client connects to it. */
async function socketServer() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: SOCKET_MAX_MESSAGE_BYTES });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const connections: ServerSocket[] = [];
  server.on('connection', (socket) => connections.push(socket));
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    connections,
    onConnection: (listener: (socket: ServerSocket) => void) => server.on('connection', listener),
    close: () => {
      for (const socket of connections) socket.terminate();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const clients: RealtimeClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A server and a console client connected to it, with a spy on the session-ended handler. */
async function connected() {
  const server = await socketServer();
  const client = new RealtimeClient(server.url);
  clients.push(client);
  const ended = vi.fn();
  client.onSessionEnded(ended);
  client.connect();
  await waitFor(() => server.connections.length === 1);
  return { server, ended };
}

describe('RealtimeClient', () => {
  it('stops and tells the app when the server ends the session', async () => {
    const { server, ended } = await connected();
    server.connections[0]!.close(CONSOLE_CLOSE.sessionEnded, 'session ended');
    await waitFor(() => ended.mock.calls.length === 1);
    // No reconnect after a session end (a plain close reconnects within 1.5 s).
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(server.connections).toHaveLength(1);
    await server.close();
  });

  it('reconnects after any other close, without calling the session handler', async () => {
    const { server, ended } = await connected();
    server.connections[0]!.close(4000, 'going away');
    await waitFor(() => server.connections.length === 2, 5000);
    expect(ended).not.toHaveBeenCalled();
    await server.close();
  });
});

describe('RealtimeClient subscriptions', () => {
  it("subscribes a site's 10,001 boards in messages the server takes, and keeps its socket", async () => {
    const server = await socketServer();
    const received: { bytes: number; message: ClientMessage | null }[] = [];
    const closes: number[] = [];
    server.onConnection((socket) => {
      socket.on('message', (raw) => {
        const text = String(raw);
        const parsed = ClientMessageSchema.safeParse(JSON.parse(text));
        received.push({ bytes: Buffer.byteLength(text), message: parsed.success ? parsed.data : null });
      });
      socket.on('close', (code) => closes.push(code));
    });
    const client = new RealtimeClient(server.url);
    clients.push(client);
    client.connect();
    await waitFor(() => client.status === 'live');
    const hardwareIds = Array.from({ length: 10_001 }, (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    const stop = client.subscribe({ exhibitIds: ['10000000-0000-4000-8000-000000000001'], hardwareIds });
    const ids = (type: 'subscribe' | 'unsubscribe') =>
      received.flatMap(({ message }) =>
        message?.type === type && (message.type === 'subscribe' || message.type === 'unsubscribe') ? [...(message.exhibitIds ?? []), ...(message.hardwareIds ?? [])] : [],
      );
    await waitFor(() => ids('subscribe').length === 10_002);
    // Every message fits the schema and the frame limit; together they name each id once.
    expect(received.every(({ message }) => message !== null)).toBe(true);
    expect(Math.max(...received.map(({ bytes }) => bytes))).toBeLessThan(SOCKET_MAX_MESSAGE_BYTES);
    expect(received.length).toBeGreaterThan(1);
    expect(new Set(ids('subscribe')).size).toBe(10_002);
    stop();
    await waitFor(() => ids('unsubscribe').length === 10_002);
    expect(closes).toEqual([]);
    expect(server.connections).toHaveLength(1);
    await server.close();
  });
});

describe('RealtimeClient status', () => {
  /** A client on a fresh server, recording its statuses and resyncs. */
  async function watched() {
    const server = await socketServer();
    const client = new RealtimeClient(server.url);
    clients.push(client);
    const statuses: string[] = [];
    const resync = vi.fn();
    client.onStatusChange((status) => statuses.push(status));
    client.onResync(resync);
    expect(client.status).toBe('reconnecting');
    client.connect();
    await waitFor(() => client.status === 'live');
    return { server, client, statuses, resync };
  }

  it('is reconnecting while the socket is down, and asks for everything to be read again once back', async () => {
    const { server, client, statuses, resync } = await watched();
    // The first connection missed nothing.
    expect(resync).not.toHaveBeenCalled();
    server.connections[0]!.terminate();
    await waitFor(() => client.status === 'reconnecting');
    await waitFor(() => client.status === 'live', 5000);
    expect(statuses).toEqual(['live', 'reconnecting', 'live']);
    expect(resync).toHaveBeenCalledTimes(1);
    await server.close();
  });

  it("is stale while the server's fan-out is degraded, and asks for a reread when it is whole again", async () => {
    const { server, client, statuses, resync } = await watched();
    server.connections[0]!.send(JSON.stringify({ type: 'realtime.status', live: false }));
    await waitFor(() => client.status === 'stale');
    expect(resync).not.toHaveBeenCalled();
    server.connections[0]!.send(JSON.stringify({ type: 'realtime.status', live: true }));
    await waitFor(() => client.status === 'live');
    expect(statuses).toEqual(['live', 'stale', 'live']);
    expect(resync).toHaveBeenCalledTimes(1);
    await server.close();
  });
});

describe('applyToCache', () => {
  it('reads everything again when the user access changed', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['exhibits'], { exhibits: [] });
    applyToCache(queryClient, { type: 'access.changed', exhibitIds: ['a'], hardwareIds: [] });
    expect(queryClient.getQueryState(['exhibits'])?.isInvalidated).toBe(true);
  });

  it('reads the file list again when a file of the exhibit, or of its leader, changed', async () => {
    const queryClient = new QueryClient();
    const exhibit = (id: string, leaderId: string | null, followers: string[] = []) =>
      ({ id, leaderId, followers: followers.map((f) => ({ id: f, name: f, online: true, opMode: 'On' })) }) as unknown as Exhibit;
    queryClient.setQueryData(queryKeys.exhibitsBySites(['s1']), { exhibits: [exhibit('leader', null), exhibit('follower', 'leader'), exhibit('other', null)] });
    queryClient.setQueryData(queryKeys.exhibit('leader'), exhibit('leader', null, ['lone-follower']));
    for (const id of ['leader', 'follower', 'lone-follower', 'other']) queryClient.setQueryData(queryKeys.exhibitFiles(id), { files: [], errors: [] });
    const isStale = (id: string) => queryClient.getQueryState(queryKeys.exhibitFiles(id))?.isInvalidated;

    applyToCache(queryClient, { type: 'exhibit.fileUploaded', exhibitId: 'leader', fileName: 'a.mp4' });
    expect([isStale('leader'), isStale('follower'), isStale('lone-follower'), isStale('other')]).toEqual([true, true, true, false]);

    applyToCache(queryClient, { type: 'exhibit.fileDeleted', exhibitId: 'other', fileName: 'a.mp4' });
    expect(isStale('other')).toBe(true);
  });

  it('writes a batch of presence changes to a list of 1,000 boards in one pass; heartbeats go to the record and the heartbeat store, not the list', () => {
    const queryClient = new QueryClient();
    const board = (n: number) => ({ id: `hw-${n}`, name: `Board ${n}`, online: true, voltage: 5, temp: 20, updatedAt: '2026-11-26T00:00:00.000Z' }) as unknown as Hardware;
    const listKey = queryKeys.hardwareBySite('s1');
    const listed = Array.from({ length: 1000 }, (_, n) => board(n));
    queryClient.setQueryData(listKey, { hardware: listed });
    queryClient.setQueryData(queryKeys.hardware('hw-7'), board(7));
    let listWrites = 0;
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success' && event.query.queryHash === JSON.stringify(listKey)) listWrites += 1;
    });
    const beat = (n: number, voltage: number) =>
      ({ type: 'hardware.statusChanged', hardwareId: `hw-${n}`, voltage, temp: 21, exhibitState: null, uptime: 1, exhibitIP: null, updatedAt: '2026-11-26T00:00:01.000Z' }) as const;
    const presence = (n: number, online: boolean) => ({ type: 'hardware.presenceChanged', hardwareId: `hw-${n}`, online }) as const;
    const batch = [...Array.from({ length: 1000 }, (_, n) => beat(n, 4)), beat(7, 3.3), ...Array.from({ length: 500 }, (_, n) => presence(n, false)), presence(9, true)];
    const card = renderHook(() => useHardwareWithStatus(listed[7]!));

    act(() => applyToCache(queryClient, batch));

    const list = queryClient.getQueryData<{ hardware: Hardware[] }>(listKey)!.hardware;
    expect(listWrites).toBe(1);
    expect(list.filter((h) => !h.online)).toHaveLength(499);
    expect(list[9]!.online).toBe(true);
    // The list keeps what it was read with; the record and a card reading the store show the newest heartbeat.
    expect(list[7]!.voltage).toBe(5);
    expect(queryClient.getQueryData<Hardware>(queryKeys.hardware('hw-7'))).toMatchObject({ voltage: 3.3, name: 'Board 7' });
    expect(card.result.current).toMatchObject({ voltage: 3.3, temp: 21, name: 'Board 7' });
    card.unmount();
  });

  it('leaves a list untouched by a batch about other units', () => {
    const queryClient = new QueryClient();
    const listKey = queryKeys.hardwareBySite('s1');
    const data = { hardware: [{ id: 'hw-1', name: 'Board 1', online: true } as unknown as Hardware] };
    queryClient.setQueryData(listKey, data);
    applyToCache(queryClient, [{ type: 'hardware.presenceChanged', hardwareId: 'hw-2', online: false }]);
    expect(queryClient.getQueryData(listKey)).toBe(data);
  });
});
