import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { ManifestSchema } from '../../shared/src/api/manifest.js';
import { GatewayMessageSchema, SdkMessageSchema } from '../../shared/src/sdk-protocol.js';
import { Exhibit, ExhibitError } from './exhibit.js';

/**
 * The shared protocol scenarios (packages/shared/protocol/exhibit-sdk.conformance.json), run on
 * the Node SDK against a scripted peer: a local HTTP server answering the authentication and a
 * socket that plays the server's side of each scenario (and, for a scenario with `contentDir`, the
 * download of its files, so the SDK syncs a real content folder). The Python SDK runs the same file
 * (packages/sdk-python/tests/test_conformance.py), so a protocol change one SDK misses fails.
 */

type Step = {
  connect?: boolean;
  in?: unknown;
  invalid?: boolean;
  do?: Record<string, unknown[]>;
  disconnect?: number;
  out?: unknown[];
  events?: unknown[];
  answer?: 'ok' | number;
};
type Scenario = { name: string; manifest: string; contentDir?: boolean; files?: Record<string, string>; steps: Step[] };
type Conformance = {
  exhibitId: string;
  credential: string;
  manifests: Record<string, unknown>;
  normalized: Record<string, unknown>;
  manifestChecks: { manifest: unknown; valid?: boolean; error?: string }[];
  scenarios: Scenario[];
};

const CONFORMANCE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../shared/protocol/exhibit-sdk.conformance.json'), 'utf8'),
) as Conformance;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The scenario's placeholders replaced ('$timestamp' stays: actual timestamps are written as it). */
function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  if (value === '$exhibitId') return CONFORMANCE.exhibitId;
  if (value === '$credential') return CONFORMANCE.credential;
  if (typeof value === 'string' && value.startsWith('$normalized:')) return CONFORMANCE.normalized[value.slice('$normalized:'.length)];
  return value;
}

/** A message as sent, its ISO timestamps written as '$timestamp'. */
function withTimestamps(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withTimestamps(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTimestamps(v, k)]));
  return key === 'timestamp' && typeof value === 'string' && ISO.test(value) ? '$timestamp' : value;
}

/** One socket the SDK opened, with what it sent on it since the last step began. */
type Connection = { socket: WebSocket; sent: unknown[] };

const TOKEN = 'token';

/** The scripted peer: authentication and file downloads over HTTP, and the socket, all on one local port. */
async function startPeer(files: Record<string, string> = {}) {
  const basic = `Basic ${Buffer.from(`${CONFORMANCE.exhibitId}:${TOKEN}`).toString('base64')}`;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://peer');
    if (request.method === 'POST' && url.pathname === '/api/v1/auth/exhibit/authenticate') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ exhibitId: CONFORMANCE.exhibitId, credential: CONFORMANCE.credential, expiresAt: new Date(Date.now() + 300_000).toISOString() }));
      return;
    }
    const fileName = url.searchParams.get('fileName') ?? '';
    if (request.method === 'GET' && url.pathname === '/api/v1/content/files/' && request.headers.authorization === basic && Object.hasOwn(files, fileName)) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(files[fileName]);
      return;
    }
    response.writeHead(404).end();
  });
  const sockets = new WebSocketServer({ server, path: '/ws' });
  const waiting: Connection[] = [];
  sockets.on('connection', (socket) => {
    const connection: Connection = { socket, sent: [] };
    socket.on('message', (raw) => connection.sent.push(JSON.parse(raw.toString())));
    waiting.push(connection);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The next connection the SDK opens (it connects and reconnects by itself). */
    async nextConnection(): Promise<Connection> {
      await waitUntil(() => waiting.length > 0, 'the SDK to connect');
      return waiting.shift()!;
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The SDK's events in the scenarios' neutral form. */
function recordEvents(exhibit: Exhibit, events: unknown[]): void {
  exhibit.on('ready', () => events.push({ ready: {} }));
  exhibit.on('control', (control) => events.push({ control }));
  exhibit.on('setting', (setting) => events.push({ setting }));
  exhibit.on('settingList', (settingList) => events.push({ settingList }));
  exhibit.on('opMode', (opMode) => events.push({ opMode }));
  exhibit.on('files', (files) => events.push({ files }));
  exhibit.on('connected', () => events.push({ connected: {} }));
  exhibit.on('disconnected', ({ code }) => events.push({ disconnected: { code } }));
  exhibit.on('error', (error) => events.push({ error: { status: error instanceof ExhibitError ? error.status : 0 } }));
}

let cleanUp: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanUp?.();
  cleanUp = null;
});

describe('the Node SDK runs the shared protocol scenarios', () => {
  it.each(CONFORMANCE.scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const peer = await startPeer(scenario.files);
    const contentDir = scenario.contentDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-conformance-')) : undefined;
    const exhibit = new Exhibit({
      serverUrl: peer.url,
      exhibitId: CONFORMANCE.exhibitId,
      token: TOKEN,
      manifest: CONFORMANCE.manifests[scenario.manifest] as never,
      contentDir,
      reconnectMinMs: 10,
      reconnectMaxMs: 20,
    });
    cleanUp = async () => {
      exhibit.close();
      await peer.close();
      if (contentDir) fs.rmSync(contentDir, { recursive: true, force: true });
    };
    const events: unknown[] = [];
    recordEvents(exhibit, events);
    let current: Connection | null = null;
    let answer: 'ok' | number | undefined;

    for (const [index, step] of scenario.steps.entries()) {
      events.length = 0;
      if (current) current.sent.length = 0;
      let sent: unknown[] = current?.sent ?? [];
      if (step.connect) {
        current = await peer.nextConnection();
        sent = current.sent;
      } else if (step.in !== undefined) {
        const message = expand(step.in);
        expect(GatewayMessageSchema.safeParse(message).success, `step ${index}: the message fits the protocol`).toBe(!step.invalid);
        current!.socket.send(JSON.stringify(message));
      } else if (step.do) {
        const [action, args] = Object.entries(step.do)[0]!;
        if (action === 'setStatus') exhibit.setStatus(args[0] as string, args[1] as number);
        else if (action === 'setOpMode') exhibit.setOpMode(args[0] as 'On');
        else if (action === 'log') exhibit.logger[args[0] as 'info'](args[1]);
        else if (action === 'event') exhibit.event(args[0] as string, args[1] as number);
        else if (action === 'setManifest') {
          exhibit.setManifest(CONFORMANCE.manifests[args[0] as string] as never).then(
            () => (answer = 'ok'),
            (error: ExhibitError) => (answer = error.status),
          );
        } else throw new Error(`unknown action ${action}`);
      } else if (step.disconnect !== undefined) {
        current!.socket.close(step.disconnect);
      }
      const out = expand(step.out ?? []) as unknown[];
      const expectedEvents = expand(step.events ?? []) as unknown[];
      await waitUntil(() => sent.length >= out.length && events.length >= expectedEvents.length, `step ${index}'s messages and events`).catch(() => undefined);
      // Anything more would arrive now.
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(withTimestamps(sent), `step ${index}: sent`).toStrictEqual(out);
      expect(events, `step ${index}: events`).toStrictEqual(expectedEvents);
      if (step.answer !== undefined) expect(answer, `step ${index}: setManifest`).toBe(step.answer);
      for (const message of sent) {
        expect(SdkMessageSchema.safeParse(message).success, `step ${index}: ${JSON.stringify(message)} fits the protocol`).toBe(true);
        const manifest = (message as { type: string; manifest?: unknown }).manifest;
        if (manifest !== undefined) expect(ManifestSchema.safeParse(manifest).success).toBe(true);
      }
    }
  });

  it.each(CONFORMANCE.manifestChecks.map((c, i) => [i, c] as const))('manifest check %i', async (_i, check) => {
    const exhibit = new Exhibit({ serverUrl: 'http://127.0.0.1:9', exhibitId: CONFORMANCE.exhibitId, token: 't', manifest: check.manifest as never });
    cleanUp = async () => exhibit.close();
    if (check.valid) {
      // A valid manifest gets as far as the network (nothing listens on port 9).
      const errors: Error[] = [];
      exhibit.on('error', (error) => errors.push(error));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(errors).toEqual([]);
      return;
    }
    const failure = await exhibit.ready().then(() => null, (error: ExhibitError) => error);
    expect(failure).toBeInstanceOf(ExhibitError);
    expect(failure!.status).toBe(400);
    expect(failure!.message).toMatch(new RegExp(check.error!));
  });
});

describe('the Node SDK sends logger lines', () => {
  it('of one tick as one log message, before a message that follows them', async () => {
    const peer = await startPeer();
    const exhibit = new Exhibit({ serverUrl: peer.url, exhibitId: CONFORMANCE.exhibitId, token: TOKEN, manifest: { statuses: [{ id: 'count', type: 'Integer' }] } as never });
    cleanUp = async () => {
      exhibit.close();
      await peer.close();
    };
    const connection = await peer.nextConnection();
    await waitUntil(() => connection.sent.length === 1, 'auth');
    connection.socket.send(JSON.stringify({ type: 'auth.ok', exhibitId: CONFORMANCE.exhibitId, name: 'Lobby kiosk', protocolVersion: 1 }));
    await waitUntil(() => connection.sent.length === 2, 'the manifest');
    connection.socket.send(JSON.stringify({ type: 'manifest.ok', requestId: '1' }));
    connection.socket.send(JSON.stringify({ type: 'exhibit.synced', opMode: 'On', settings: [], settingLists: [], statuses: [] }));
    await exhibit.ready();
    await waitUntil(() => connection.sent.some((m) => (m as { type: string }).type === 'ack'), 'the acknowledgement of the sync');
    connection.sent.length = 0;

    exhibit.logger.info('one');
    exhibit.logger.warn('two');
    exhibit.setStatus('count', 1);
    exhibit.logger.error('three');
    await waitUntil(() => connection.sent.length >= 3, 'the lines and the status');
    await new Promise((resolve) => setTimeout(resolve, 40));
    const lines = (message: unknown) => (message as { entries?: { message: string }[] }).entries?.map((e) => e.message);
    expect(connection.sent.map((m) => (m as { type: string }).type)).toEqual(['log', 'status', 'log']);
    expect(lines(connection.sent[0])).toEqual(['one', 'two']);
    expect(lines(connection.sent[2])).toEqual(['three']);

    // More lines in one tick than a message may carry: split at the protocol's 500.
    connection.sent.length = 0;
    for (let i = 0; i < 1200; i += 1) exhibit.logger.debug(`line ${i}`);
    await waitUntil(() => connection.sent.length >= 3, 'the three messages');
    expect(connection.sent.map((m) => lines(m)!.length)).toEqual([500, 500, 200]);
    for (const message of connection.sent) expect(SdkMessageSchema.safeParse(message).success).toBe(true);
  });
});
