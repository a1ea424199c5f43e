import type { GatewayMessage } from '@plinth/shared';
import { nodeChannel, type NodeChannel } from '../realtime/channel.js';
import type { RealtimeHub } from '../realtime/hub.js';

/**
 * What nodes tell each other about one exhibit's connection, on the hub topic
 * `exhibit-device:{id}`; no console socket can subscribe to it (they get `exhibit:` and
 * `hardware:` topics only), and it is not a RealtimeEvent.
 */
export type DeviceMessage =
  /** Write this to the exhibit (sent by a node that does not hold the connection). */
  | { type: 'device.send'; message: GatewayMessage }
  /** A token was revoked: close the connections opened with it. */
  | { type: 'device.revoke'; tokenId: string }
  /** A connection of the exhibit authenticated at `at` (ms): older ones, on any node, close as replaced. */
  | { type: 'device.takeover'; connectionId: string; at: number };

/** The hub topic prefix on which the node holding an exhibit's connection listens. */
const DEVICE_TOPIC_PREFIX = 'exhibit-device';

/** The node-to-node channel of exhibit connections (docs/protocols/exhibit-sdk.md, several server nodes). */
export function createDeviceChannel(hub: RealtimeHub): NodeChannel<DeviceMessage> {
  return nodeChannel<DeviceMessage>(hub, DEVICE_TOPIC_PREFIX);
}
