import WebSocket from 'ws';
import type { ServerMessage } from '@plinth/shared';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens a console socket on the server's `/ws`, signed in with a session `cookie`, and subscribes
 * it to every board or exhibit named, `batch` ids a message; resolves once the server has
 * confirmed every one (throws if any is refused or the server does not answer in time). Every
 * message the server sends goes to `onEvent` with the monotonic time it arrived (ns); with `onRaw`,
 * only until the socket is subscribed: from then on every frame goes to `onRaw` unparsed.
 */
export async function openSubscribedConsole(options: {
  url: string;
  cookie: string;
  kind: 'hardwareIds' | 'exhibitIds';
  ids: string[];
  batch: number;
  onEvent?: (message: ServerMessage, receivedAt: bigint) => void;
  /**
   * Once subscribed, each frame as the bytes that came, with the monotonic time it arrived (ns),
   * neither parsed nor checked to be UTF-8: for a receiver of many thousands of frames a second
   * that looks only for a few strings in them.
   */
  onRaw?: (raw: Buffer, receivedAt: bigint) => void;
}): Promise<WebSocket> {
  const { kind, ids, onRaw } = options;
  const socket = new WebSocket(`${options.url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: options.cookie }, skipUTF8Validation: onRaw !== undefined });
  let authenticated: boolean | null = null;
  let subscribed = 0;
  let refused = 0;
  let raw = false;
  socket.on('message', (data: Buffer) => {
    const receivedAt = process.hrtime.bigint();
    if (raw && onRaw) {
      onRaw(data, receivedAt);
      return;
    }
    const message = JSON.parse(data.toString()) as ServerMessage;
    if (message.type === 'handshake') authenticated = message.authenticated;
    else if (message.type === 'subscribed') {
      subscribed += message[kind].length;
      refused += message.refused.length;
    }
    options.onEvent?.(message, receivedAt);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  for (let i = 0; i < 100 && authenticated === null; i++) await sleep(50);
  if (!authenticated) throw new Error('the console socket was not authenticated by the session cookie');
  for (let i = 0; i < ids.length; i += options.batch) {
    socket.send(JSON.stringify({ type: 'subscribe', [kind]: ids.slice(i, i + options.batch) }));
  }
  for (let i = 0; i < 1200 && subscribed + refused < ids.length; i++) await sleep(50);
  if (subscribed !== ids.length) {
    throw new Error(`the console socket subscribed to ${subscribed} of ${ids.length} ${kind === 'hardwareIds' ? 'boards' : 'exhibits'} (${refused} refused)`);
  }
  raw = true;
  return socket;
}
