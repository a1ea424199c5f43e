import type { WebSocket } from 'ws';
import { EXHIBIT_AUTH_TIMEOUT_MS, EXHIBIT_HEARTBEAT_MS } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { describeFailure } from '../lib/describe-failure.js';
import { countOfflineExhibits } from '../modules/exhibit-runtime/exhibit-presence.repository.js';
import { EXHIBIT_CLOSES, ExhibitConnection } from './exhibit-connection.js';
import { ExhibitConnections } from './exhibit-connections.js';
import { handleExhibitMessage } from './exhibit-messages.js';
import type { ExhibitCodec, ExhibitGateway } from './ports.js';

/**
 * The exhibit gateway (ports.ts): SDK sockets on this node, each an ExhibitConnection whose
 * messages exhibit-messages.ts handles in order; the node-to-node device channel reaches
 * connections held by other nodes; exhibit-presence.ts keeps `exhibits.online`.
 */
export function createExhibitGateway(deps: AppDeps): ExhibitGateway {
  const connections = new ExhibitConnections(deps);
  deps.metrics.setSource('exhibitsConnected', () => connections.current.size);
  deps.metrics.setSource('exhibitsOffline', () => countOfflineExhibits(deps.db));
  const sweep = () => connections.sweep();
  const heartbeat = setInterval(sweep, EXHIBIT_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    isExhibitSocket: (request) => (request.query as Record<string, unknown> | undefined)?.client === 'exhibit',
    accept(socket, request) {
      if (connections.closing) {
        socket.close(1001, 'shutting down');
        return;
      }
      attach(connections, socket, { remoteAddress: request.ip, codec: null });
    },
    acceptTranslated(socket, remoteAddress, codec) {
      if (connections.closing) {
        socket.close(1001, 'shutting down');
        return;
      }
      attach(connections, socket, { remoteAddress, codec });
    },
    send(exhibitId, message) {
      const connection = connections.current.get(exhibitId);
      if (connection && connection.write(message)) return;
      connections.devices.publish(exhibitId, { type: 'device.send', message });
    },
    disconnectToken(exhibitId, tokenId) {
      connections.dropToken(tokenId);
      connections.devices.publish(exhibitId, { type: 'device.revoke', tokenId });
    },
    sweep,
    connectionCount: () => connections.current.size,
    releaseLostNode: (nodeId) => connections.presence.releaseLostNode(nodeId),
    async reassertOnline() {
      const held = [...connections.current];
      await Promise.all(held.map(([exhibitId, connection]) => connections.presence.markOnline(exhibitId, connection)));
      return held.length;
    },
    goodbye: () => connections.goodbye(),
    async close() {
      clearInterval(heartbeat);
      await connections.close();
    },
  };
}

/**
 * Takes over a new socket: it must authenticate in time; its messages are handled one after
 * another. A translated socket's frames become SDK messages first (`codec`).
 */
function attach(connections: ExhibitConnections, socket: WebSocket, from: { remoteAddress: string; codec: ExhibitCodec | null }): void {
  const { deps } = connections;
  const { codec } = from;
  const connection = new ExhibitConnection(socket, { remoteAddress: from.remoteAddress, now: connections.now(), codec });
  connections.all.add(connection);
  connection.authTimer = setTimeout(() => {
    if (!connection.exhibitId) connection.drop(EXHIBIT_CLOSES.noAuthMessage);
  }, EXHIBIT_AUTH_TIMEOUT_MS);
  connection.authTimer.unref();
  const heard = () => {
    connection.lastSeen = connections.now();
  };
  socket.on('message', (raw) => {
    heard();
    const text = raw.toString();
    const decoded = codec ? codec.decode(text) : null;
    for (const reply of decoded?.replies ?? []) socket.send(reply);
    const texts = decoded ? decoded.messages.map((message) => JSON.stringify(message)) : [text];
    for (const one of texts) {
      connection.queue = connections.track(
        connection.queue.then(() => handleExhibitMessage(connections, connection, one)).catch((error: unknown) => {
          deps.logger.warn({ failure: describeFailure(error), exhibitId: connection.exhibitId }, 'exhibit message failed');
          connection.write({ type: 'error', message: 'The message could not be handled.' });
        }),
      );
    }
  });
  socket.on('pong', heard);
  socket.on('ping', heard);
  socket.on('close', () => connections.ended(connection));
  socket.on('error', () => connections.ended(connection));
}

/** A gateway with no connections, for command-line tools that reach services without the server. */
export function createDetachedExhibitGateway(): ExhibitGateway {
  return {
    isExhibitSocket: () => false,
    accept: (socket) => socket.close(1013, 'not accepting exhibit connections'),
    acceptTranslated: (socket) => socket.close(1013, 'not accepting exhibit connections'),
    send: () => undefined,
    disconnectToken: () => undefined,
    sweep: () => undefined,
    connectionCount: () => 0,
    releaseLostNode: async () => 0,
    reassertOnline: async () => 0,
    goodbye: () => undefined,
    close: async () => undefined,
  };
}
