import type { GatewayMessage, RealtimeEvent } from '@plinth/shared';

/** The events of one exhibit that consoles receive (hub topic `exhibit:{id}`). */
export type ExhibitEvent = Extract<RealtimeEvent, { exhibitId: string }>;
/** The events of one hardware unit that consoles receive (hub topic `hardware:{id}`). */
export type HardwareEvent = Extract<RealtimeEvent, { hardwareId: string }>;

/**
 * What nodes tell each other about one exhibit's connection (hub topic `exhibit-device:{id}`).
 * No console socket can subscribe to it: consoles get `exhibit:` and `hardware:` topics only.
 */
export type DeviceMessage =
  /** Write this to the exhibit (sent by a node that does not hold the connection). */
  | { type: 'device.send'; message: GatewayMessage }
  /** A token was revoked: close the connections opened with it. */
  | { type: 'device.revoke'; tokenId: string }
  /** A connection of the exhibit authenticated at `at` (ms): older ones, on any node, close as replaced. */
  | { type: 'device.takeover'; connectionId: string; at: number };

/**
 * Why a user's access changed: a grant was removed or its role changed, a session ended
 * (logout, password change, an admin signing the user out), or the platform-admin flag changed.
 */
export type AccessChangeReason = 'grant' | 'session' | 'platform-admin';

/** Tells every node that a user's access changed (hub topic `access-user:{id}`). */
export type AccessNotice = { type: 'access.changed'; userId: string; reason: AccessChangeReason };

/**
 * The hub's topics by kind, and what each carries: a topic is `{kind}:{id}`. Console sockets
 * listen to `exhibit` and `hardware` topics only; the others are between server nodes.
 */
export type HubTopics = {
  exhibit: ExhibitEvent;
  hardware: HardwareEvent;
  'exhibit-device': DeviceMessage;
  'access-user': AccessNotice;
};
export type HubKind = keyof HubTopics;
