import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { CommandMessage, CommandResult, GatewayMessage, SdkMessage } from '@plinth/shared';

/**
 * The device gateways as the rest of the server sees them. Services reach exhibits and boards
 * only through these types (in AppDeps), never through a gateway file, so the gateways can call
 * the services without an import circle.
 */

/** Why an exhibit went offline, kept in its connection history. */
export type OfflineReason = 'closed' | 'timeout' | 'revoked' | 'replaced' | 'deleted' | 'shutdown' | 'restart' | 'node_lost';

/**
 * The exhibit side: SDK connections on /ws (`?client=exhibit`), their online state and
 * heartbeat, and what the console sends to exhibits (controls, settings, op mode).
 * A connection lives on the node that accepted it; what any node sends to an exhibit goes
 * through the realtime hub (`exhibit-device:{id}`) to the node that holds the connection, so
 * several nodes behave as one. Whether an exhibit is online is `exhibits.online` in the database.
 */
export type ExhibitGateway = {
  /** True for an upgrade request meant for the gateway (`/ws?client=exhibit`). */
  isExhibitSocket: (request: FastifyRequest) => boolean;
  /** Takes over an SDK socket: auth message, then manifest, statuses, acks, logs. */
  accept: (socket: WebSocket, request: FastifyRequest) => void;
  /**
   * Takes over a socket that speaks another exhibit protocol (compat/): `codec` translates its
   * frames into SDK messages and the gateway's messages into its frames. Everything else
   * (authentication, online state and history, delivery from any node, heartbeat) is the same
   * as for an SDK socket.
   */
  acceptTranslated: (socket: WebSocket, remoteAddress: string, codec: ExhibitCodec) => void;
  /**
   * Sends to the exhibit wherever its connection is: written directly when this node holds it,
   * else handed to the node that does; dropped when no node does (callers check
   * `exhibits.online` first when the sender must know).
   */
  send: (exhibitId: string, message: GatewayMessage) => void;
  /** Closes the connections of the exhibit authenticated with a token (it was revoked), on any node. */
  disconnectToken: (exhibitId: string, tokenId: string) => void;
  /** Pings live connections and drops those not heard from within the offline window. */
  sweep: () => void;
  /** Number of authenticated connections (for the benchmark and health). */
  connectionCount: () => number;
  /**
   * A server node died (it stopped beating, server_nodes): the exhibits it held that no node has
   * marked online since go offline ('node_lost'), with their events. Answers how many.
   */
  releaseLostNode: (nodeId: string) => Promise<number>;
  /** Marks every exhibit connected to this node online again (another node took this one for dead). */
  reassertOnline: () => Promise<number>;
  /** A graceful stop begins: refuse new connections and tell every open one to reconnect (1012). */
  goodbye: () => void;
  /** Ends every connection left (the exhibits go offline) and waits for the work still running. */
  close: () => Promise<void>;
};

/**
 * A translation between a foreign exhibit protocol and the SDK protocol, one per socket. The
 * gateway never learns the foreign protocol: it hands each incoming frame to `decode` and each
 * message it would write to `encode`.
 */
export type ExhibitCodec = {
  /** An incoming frame: the SDK messages it stands for, and frames to answer at once. */
  decode: (raw: string) => { messages: SdkMessage[]; replies: string[] };
  /** A message for the exhibit: the frames to write (none drops it). */
  encode: (message: GatewayMessage) => string[];
};

/** A command without its correlation id, which the gateway adds. */
export type OutgoingCommand = CommandMessage extends infer C ? (C extends CommandMessage ? Omit<C, 'correlationId'> : never) : never;

/** How one command is sent: its wait for the result and, when the caller must know it first, its correlation id. */
export type SendCommandOptions = { timeoutMs?: number; correlationId?: string };

/**
 * The hardware side: the MQTT broker (embedded aedes, or MQTT_URL) and the board protocol of
 * docs/protocols/hardware-mqtt.md. It keeps each board's row (online, status, versions,
 * peripherals) up to date, publishes the hub's hardware.* events, and sends commands whose
 * outcome comes back by correlation id.
 */
export type HardwareGateway = {
  /** The embedded broker's port, or null when an external broker is used. */
  mqttPort: number | null;
  /** Whether the broker answers now (for /readyz): the embedded one listens, or the link to MQTT_URL is up. */
  isBrokerReady: () => boolean;
  /**
   * Sends a command (QoS 1) and waits for the board's result. A board that does not answer in
   * time gives { ok: false, error: 'timeout' }.
   */
  sendCommand: (hardwareId: string, command: OutgoingCommand, options?: SendCommandOptions) => Promise<CommandResult>;
  /** Switches debug mode: stores it, tells the consoles and the board. Turning it on needs the board online. */
  setDebug: (hardwareId: string, on: boolean) => Promise<boolean>;
  /** A token was created: with an external broker it becomes the board's broker password. */
  tokenCreated: (hardwareId: string, token: string) => Promise<void>;
  /** A token was deleted: live sessions that used it are dropped. */
  tokenRevoked: (hardwareId: string, tokenId: string, wasNewest: boolean) => Promise<void>;
  /** The hardware was deleted: its sessions are dropped and its broker credential removed. */
  hardwareDeleted: (hardwareId: string) => Promise<void>;
  close: () => Promise<void>;
};
