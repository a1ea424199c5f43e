import { Id, SDK_PROTOCOL_VERSION } from '@plinth/shared';
import { findExhibitName } from '../modules/exhibit-runtime/exhibit-presence.repository.js';
import { credentialTokenId, verifyExhibitCredential } from '../modules/exhibit-runtime/exhibit-tokens.service.js';
import { ownString } from '../lib/own-string.js';
import { EXHIBIT_CLOSES, type ExhibitConnection } from './exhibit-connection.js';
import type { ExhibitConnections } from './exhibit-connections.js';
import type { DeviceMessage } from '../realtime/hub-messages.js';

/**
 * Authenticates a connection with its `auth` message. A token revoked at any moment must close
 * it, so the connection becomes reachable by revocations (its token id known locally, the
 * exhibit's device topic subscribed on every node) before the credential is checked against the
 * database: a revocation deletes the token first and announces it after, so either the check
 * sees it gone or the announcement reaches the connection.
 */
export async function authenticateConnection(
  connections: ExhibitConnections,
  connection: ExhibitConnection,
  auth: { exhibitId: string; token: string },
): Promise<void> {
  const { deps, devices } = connections;
  const { exhibitId, token: credential } = auth;
  const claimedTokenId = Id.safeParse(exhibitId).success ? credentialTokenId(credential) : null;
  const refuse = () => {
    connection.write({ type: 'error', message: 'The credential is not valid or has expired.' });
    connection.drop(EXHIBIT_CLOSES.unauthorized);
  };
  if (!claimedTokenId) return refuse();
  // Cut from the credential, it would keep the whole credential for the connection's life.
  connection.tokenId = ownString(claimedTokenId);
  const offDevice = devices.subscribe(exhibitId, deviceListener(connections, connection, exhibitId));
  connection.unsubscribe = offDevice;
  await offDevice.ready;
  const tokenId = await verifyExhibitCredential(deps, exhibitId, credential);
  if (tokenId !== claimedTokenId) return refuse();
  await connections.ready;
  if (connection.socket.readyState !== connection.socket.OPEN || connections.closing) return;
  clearTimeout(connection.authTimer);
  connection.session = { deps, connection, exhibitId, statuses: new Map(), store: (write) => connections.statusWrites.add(write.statusId, write) };
  connection.authenticatedAt = connections.now();
  const previous = connections.current.get(exhibitId);
  connections.current.set(exhibitId, connection);
  if (previous) previous.drop(EXHIBIT_CLOSES.replaced);
  const offDeleted = deps.hub.subscribe('exhibit', exhibitId, (event) => {
    if (event.type === 'exhibit.deleted') connection.drop(EXHIBIT_CLOSES.deleted);
  });
  connection.unsubscribe = () => {
    offDeleted();
    offDevice();
  };
  devices.publish(exhibitId, { type: 'device.takeover', connectionId: connection.id, at: connection.authenticatedAt });
  // Queued now, before any await, so that an "offline" from a quick close comes after it.
  const markedOnline = previous ? Promise.resolve() : connections.presence.markOnline(exhibitId, connection);
  const name = await findExhibitName(deps.db, exhibitId);
  await markedOnline;
  connection.write({ type: 'auth.ok', exhibitId, name, protocolVersion: SDK_PROTOCOL_VERSION });
}

/** What this connection does with the other nodes' messages about its exhibit. */
function deviceListener(connections: ExhibitConnections, connection: ExhibitConnection, exhibitId: string) {
  return (message: DeviceMessage): void => {
    if (message.type === 'device.send') {
      if (connections.current.get(exhibitId) === connection) connection.write(message.message);
    } else if (message.type === 'device.revoke') {
      if (connection.tokenId === message.tokenId) connection.drop(EXHIBIT_CLOSES.revoked);
    } else if (connection.authenticatedAt > 0 && message.connectionId !== connection.id && message.at >= connection.authenticatedAt) {
      connection.drop(EXHIBIT_CLOSES.replaced);
    }
  };
}
