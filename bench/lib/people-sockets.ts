// The sockets of the people benchmark's granular-levels part (bench/people.bench.ts): an exhibit
// SDK socket speaking the raw protocol (packages/shared/src/sdk-protocol.ts, as
// apps/server/src/test/exhibit-socket.ts does) and console sockets signed in by a session cookie,
// each noting when every status change arrived.
import WebSocket from 'ws';
import { SESSION_COOKIE, type GatewayMessage, type ServerMessage } from '@plinth/shared';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms until it answers true, failing after `timeoutMs` naming `what`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function post<T>(url: string, body: unknown, cookie = ''): Promise<{ body: T; cookie: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${new URL(url).pathname} answered ${res.status}: ${await res.text()}`);
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
  return { body: (await res.json()) as T, cookie: session };
}

/** Signs a user in through the REST API; answers the session cookie. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const { cookie } = await post(`${baseUrl}/api/v1/auth/user/login`, { email, password });
  if (!cookie) throw new Error(`signing ${email} in gave no session cookie`);
  return cookie;
}

/** Opens a socket with its message handler in place first: the server's first frame may come with the upgrade. */
function openSocket(url: string, onMessage: (raw: WebSocket.RawData) => void, headers: Record<string, string> = {}): Promise<WebSocket> {
  const socket = new WebSocket(url, { headers });
  socket.on('message', onMessage);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

export type SdkSocket = { send: (statusId: string, value: number) => void; close: () => void };

/**
 * An exhibit's SDK connection: a token made with `cookie` (who may create one), exchanged for a
 * credential, the socket authenticated and the manifest sent and accepted.
 */
export async function openSdkSocket(baseUrl: string, access: { cookie: string; exhibitId: string; manifest: object }): Promise<SdkSocket> {
  const { exhibitId } = access;
  const token = (await post<{ token: string }>(`${baseUrl}/api/v1/auth/exhibit`, { name: 'bench sdk', exhibitId }, access.cookie)).body.token;
  const { credential } = (await post<{ credential: string }>(`${baseUrl}/api/v1/auth/exhibit/authenticate`, { exhibitId, token })).body;
  const seen = new Set<string>();
  let refusal = '';
  const socket = await openSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?client=exhibit`, (raw) => {
    const message = JSON.parse(raw.toString()) as GatewayMessage;
    seen.add(message.type);
    if (message.type === 'manifest.error' || message.type === 'error') refusal = JSON.stringify(message);
  });
  socket.send(JSON.stringify({ type: 'auth', exhibitId, token: credential }));
  await waitFor(() => seen.has('auth.ok') || refusal !== '', 'auth.ok on the SDK socket');
  socket.send(JSON.stringify({ type: 'manifest', requestId: 'bench', manifest: access.manifest }));
  await waitFor(() => seen.has('manifest.ok') || refusal !== '', 'manifest.ok on the SDK socket');
  if (refusal) throw new Error(`the SDK socket was refused: ${refusal}`);
  return {
    send: (statusId, value) => socket.send(JSON.stringify({ type: 'status', id: statusId, value })),
    close: () => socket.close(),
  };
}

/** One status change as a console received it. */
export type Received = { statusId: string; value: number; atMs: number };

export type ConsoleSocket = { received: Received[]; close: () => void };

/** A console socket signed in by `cookie`, subscribed to the exhibit, noting every status change with its arrival time. */
export async function openConsoleSocket(baseUrl: string, access: { cookie: string; exhibitId: string }): Promise<ConsoleSocket> {
  const received: Received[] = [];
  let authenticated: boolean | null = null;
  let subscribed = false;
  const onMessage = (raw: WebSocket.RawData) => {
    const atMs = performance.now();
    const message = JSON.parse(raw.toString()) as ServerMessage;
    if (message.type === 'exhibit.statusChanged' && typeof message.value === 'number') received.push({ statusId: message.statusId, value: message.value, atMs });
    else if (message.type === 'handshake') authenticated = message.authenticated;
    else if (message.type === 'subscribed') subscribed = message.exhibitIds.includes(access.exhibitId);
  };
  const socket = await openSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, onMessage, { cookie: access.cookie });
  await waitFor(() => authenticated !== null, 'the console handshake');
  if (!authenticated) throw new Error('the console socket was not authenticated by the session cookie');
  socket.send(JSON.stringify({ type: 'subscribe', exhibitIds: [access.exhibitId] }));
  await waitFor(() => subscribed, 'the console subscription');
  return { received, close: () => socket.close() };
}
