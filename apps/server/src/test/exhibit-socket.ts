import { once } from 'node:events';
import WebSocket from 'ws';
import type { GatewayMessage } from '@plinth/shared';
import { waitUntil } from './hardware-kit.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

/** A raw exhibit SDK connection (`/ws?client=exhibit`), authenticated, collecting what the server sends. */
export type ExhibitSocket = {
  socket: WebSocket;
  messages: GatewayMessage[];
  send: (message: unknown) => void;
  /** The first message matching `match`, waiting for it (fails the test after 5 s). */
  waitFor: (match: (message: GatewayMessage) => boolean) => Promise<GatewayMessage>;
  close: () => void;
};

/** Creates a token for the exhibit (as `admin`), exchanges it for a credential and authenticates a socket with it. */
export async function openExhibitSocket(server: TestServer, admin: TestClient, exhibitId: string): Promise<ExhibitSocket> {
  const token = (await admin.post('/auth/exhibit', { name: 'sdk', exhibitId })).body.token as string;
  const { credential } = (await server.client().post('/auth/exhibit/authenticate', { exhibitId, token })).body;
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws?client=exhibit`);
  const messages: GatewayMessage[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as GatewayMessage));
  await once(socket, 'open');
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  const waitFor = (match: (message: GatewayMessage) => boolean) => waitUntil(() => messages.find(match), 'a message from the server', 5000);
  send({ type: 'auth', exhibitId, token: credential });
  await waitFor((m) => m.type === 'auth.ok');
  return { socket, messages, send, waitFor, close: () => socket.close() };
}
