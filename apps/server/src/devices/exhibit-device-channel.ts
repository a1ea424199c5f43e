import type { DeviceMessage } from '../realtime/hub-messages.js';
import type { HubSubscription, RealtimeHub } from '../realtime/hub.js';

/** The node-to-node channel of one exhibit's connection (docs/protocols/exhibit-sdk.md, several server nodes). */
export type DeviceChannel = {
  publish: (exhibitId: string, message: DeviceMessage) => void;
  subscribe: (exhibitId: string, listener: (message: DeviceMessage) => void) => HubSubscription;
};

/** The device channel over the hub's `exhibit-device` topics. */
export function createDeviceChannel(hub: RealtimeHub): DeviceChannel {
  return {
    publish: (exhibitId, message) => hub.publish('exhibit-device', exhibitId, message),
    subscribe: (exhibitId, listener) => hub.subscribe('exhibit-device', exhibitId, listener),
  };
}
