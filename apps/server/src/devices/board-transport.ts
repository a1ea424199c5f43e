import { MQTT_TOPIC_ROOT } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { verifyHardwareToken } from '../modules/hardware-runtime/hardware-tokens.repository.js';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-broker.js';
import { createDynsecProvisioner } from './mqtt-dynsec.js';
import { connectMqttLink, createInProcessLink, type MqttHandler, type MqttLink } from './mqtt-link.js';

/** The board channels every instance shares out through MQTT shared subscriptions (`result` goes to all). */
const SHARED_CHANNELS = ['status', 'announce', 'heartbeat', 'prop', 'firmware', 'log'];

/**
 * The hardware gateway's side of the broker: the link it publishes and receives through, and the
 * boards' broker credentials. The embedded aedes broker checks tokens itself; with MQTT_URL the
 * credentials are provisioned into Mosquitto's dynamic security, when the URL names a user.
 */
export type BoardTransport = {
  link: MqttLink;
  /** The embedded broker's port, or null when an external broker is used. */
  mqttPort: number | null;
  /** Whether the broker answers now: the embedded one listens, or the link to MQTT_URL is connected. */
  isReady: () => boolean;
  /** Starts receiving board messages (after which they may arrive at any moment). */
  subscribe: (onMessage: MqttHandler) => Promise<void>;
  tokenCreated: (hardwareId: string, token: string) => Promise<void>;
  tokenRevoked: (hardwareId: string, tokenId: string, wasNewest: boolean) => Promise<void>;
  boardDeleted: (hardwareId: string) => Promise<void>;
  /**
   * Told when the link to an external broker is back after it was lost at `lostAt` (the broker
   * restarted), once it has subscribed again: what boards said before that reached no server.
   */
  onLinkBack: (listener: (lostAt: Date) => void) => void;
  close: () => Promise<void>;
};

/**
 * Connects to MQTT_URL, or starts the embedded broker. `onBoardGone` is told when the embedded
 * broker loses a board's last connection.
 */
export async function openBoardTransport(deps: AppDeps, onBoardGone: (hardwareId: string) => void): Promise<BoardTransport> {
  return deps.config.MQTT_URL ? openExternal(deps.config.MQTT_URL) : openEmbedded(deps, onBoardGone);
}

async function openExternal(url: string): Promise<BoardTransport> {
  const link = await connectMqttLink(url);
  const dynsec = decodeURIComponent(new URL(url).username) ? await createDynsecProvisioner(link) : null;
  return {
    link,
    mqttPort: null,
    isReady: () => link.client.connected,
    subscribe: async (onMessage) => {
      // Results go to every instance (only the one that sent the command is waiting); the rest is shared.
      await link.subscribe(`${MQTT_TOPIC_ROOT}/+/result`, onMessage);
      for (const channel of SHARED_CHANNELS) await link.subscribe(`${MQTT_TOPIC_ROOT}/+/${channel}`, onMessage, { shared: true });
    },
    tokenCreated: async (hardwareId, token) => {
      await dynsec?.provisionBoard(hardwareId, token);
    },
    tokenRevoked: async (hardwareId, _tokenId, wasNewest) => {
      // With Mosquitto the board's broker password is its newest token (docs/protocols/hardware-mqtt.md).
      if (dynsec && wasNewest) await dynsec.revokeBoard(hardwareId);
    },
    boardDeleted: async (hardwareId) => {
      await dynsec?.deleteBoard(hardwareId);
    },
    onLinkBack: (listener) => link.onBack(listener),
    close: () => link.close(),
  };
}

async function openEmbedded(deps: AppDeps, onBoardGone: (hardwareId: string) => void): Promise<BoardTransport> {
  // A board may connect and leave before the broker is returned here.
  let started: EmbeddedBroker | null = null;
  const broker = await startEmbeddedBroker({
    port: deps.config.MQTT_PORT,
    host: deps.config.MQTT_HOST,
    logger: deps.logger,
    authenticateBoard: (hardwareId, token) => verifyHardwareToken(deps.db, hardwareId, token),
    onBoardDisconnected: (session) => {
      if (!started?.isConnected(session.hardwareId)) onBoardGone(session.hardwareId);
    },
  });
  started = broker;
  const link = createInProcessLink(broker.broker);
  return {
    link,
    mqttPort: broker.port,
    isReady: () => broker.isListening(),
    subscribe: (onMessage) => link.subscribe(`${MQTT_TOPIC_ROOT}/+/+`, onMessage),
    tokenCreated: async () => undefined,
    tokenRevoked: async (hardwareId, tokenId) => {
      broker.dropSessions(hardwareId, tokenId);
    },
    boardDeleted: async (hardwareId) => {
      broker.dropSessions(hardwareId);
    },
    // The embedded broker lives and dies with the server: there is no link to lose.
    onLinkBack: () => undefined,
    close: async () => {
      // The broker first: until it stops taking publishes, what it acknowledges must still reach the
      // gateway's subscription (unsubscribing first lost a board's last PUBACKed prop change).
      await broker.close();
      await link.close();
    },
  };
}
