import { randomUUID } from 'node:crypto';
import { COMMAND_TIMEOUT_MS, isId, parseHardwareTopic } from '@plinth/shared';
import { presentDebugChanged } from '../modules/hardware-runtime/hardware-events.presenter.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/app-error.js';
import { countOfflineBoards, getRuntimeRow, listOnlineOrOfflineSince, setControlDebug } from '../modules/hardware-runtime/hardware-state.repository.js';
import { describeFailure } from '../lib/describe-failure.js';
import { BoardCommands } from './board-commands.js';
import { createBoardMessageHandlers } from './board-messages.js';
import { BoardPresence } from './board-presence.js';
import { BoardPropCatalog } from './board-props.js';
import { BoardQueue } from './board-queue.js';
import { openBoardTransport } from './board-transport.js';
import { BoardWrites } from './board-writes.js';
import { readPeripherals } from './hardware-ingest.repository.js';
import { createInvalidMessages } from './invalid-messages.js';
import type { HardwareGateway } from './ports.js';

export type HardwareGatewayOptions = {
  /** How often silent boards are looked for, in ms. */
  watchdogMs?: number;
  commandTimeoutMs?: number;
  /** How long heartbeats (and prop values, and invalid-message counts) gather before they are stored together, in ms. */
  heartbeatFlushMs?: number;
};

/** Boards that went offline this long before the broker link was lost count as lost with it (their wills came first), in ms. */
const LINK_LOSS_MARGIN_MS = 5000;

/** How long a stop keeps trying to store the batched writes while the database is away, in ms. */
const STOP_WRITES_WITHIN_MS = 3000;

/**
 * Starts the hardware gateway (ports.ts) from its parts: the broker transport, board presence and
 * its watchdog, a queue per board, the message handlers by channel, the batched writes, and
 * command correlation.
 */
export async function startHardwareGateway(deps: AppDeps, options: HardwareGatewayOptions = {}): Promise<HardwareGateway> {
  const { db, clock } = deps;
  const isShared = Boolean(deps.config.MQTT_URL);
  const flushMs = options.heartbeatFlushMs ?? 100;
  const queue = new BoardQueue(deps.logger);
  const presence = new BoardPresence(deps, { isShared, queue });
  await presence.start();
  // While the gateway closes, the broker still hands over what boards sent before it stopped (their
  // PUBACKs are out: those messages must be stored), but the disconnections and last wills the
  // stop itself causes are not the boards going offline.
  let closing = false;
  const transport = await openBoardTransport(deps, (hardwareId) => {
    if (!closing) queue.enqueue(hardwareId, () => presence.changeOnline(hardwareId, { online: false, reason: 'disconnect' }));
  });
  const commands = new BoardCommands(transport.link, options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS);
  const props = new BoardPropCatalog((hardwareId) => readPeripherals(db, hardwareId));
  const writes = new BoardWrites(deps, flushMs);
  const invalid = createInvalidMessages(deps, { flushMs });
  const handlers = createBoardMessageHandlers({ deps, presence, props, writes, commands, invalid, isShared });
  await transport.subscribe((topic, payload) => {
    const parsed = parseHardwareTopic(topic);
    // A board id that is not a UUID names no board (and would fail the batched writes' ::uuid).
    if (!parsed || parsed.channel === 'cmd' || !isId(parsed.hardwareId)) return;
    if (closing && parsed.channel === 'status') return;
    deps.metrics.boardMessages.inc(parsed.channel);
    const handle = handlers.get(parsed.channel);
    if (handle) queue.enqueue(parsed.hardwareId, () => handle(parsed.hardwareId, payload));
  });
  // The external broker restarted. Boards reconnected by themselves, but what they published before
  // the link subscribed again (announces, prop changes) reached no server: Mosquitto keeps no
  // subscription of a session across its restart (docs/reliability.md). Every board that may have
  // been connected around the outage is asked to announce again (`get`) once the link's
  // subscriptions are back: its announce carries every value, so the stored state is right again.
  transport.onLinkBack((lostAt) => {
    void (async () => {
      const ids = await listOnlineOrOfflineSince(db, new Date(lostAt.getTime() - LINK_LOSS_MARGIN_MS));
      await Promise.all(ids.map((id) => commands.publish(id, { command: 'get', correlationId: randomUUID() })));
      deps.logger.info({ boards: ids.length }, `the broker link is back: ${ids.length} boards online or gone offline around its loss were asked to announce`);
    })().catch((error: unknown) => deps.logger.warn({ failure: describeFailure(error) }, 'could not ask boards to announce after the broker link came back'));
  });
  presence.watch(options.watchdogMs ?? 250);
  deps.metrics.setSource('boardsOnline', () => presence.onlineCount);
  deps.metrics.setSource('boardsOffline', () => countOfflineBoards(db));

  return {
    mqttPort: transport.mqttPort,
    isBrokerReady: () => transport.isReady(),
    sendCommand: async (hardwareId, command, sendOptions) => {
      const result = await commands.send(hardwareId, command, sendOptions);
      if (command.command === 'reboot' && result.ok) presence.expectReboot(hardwareId);
      return result;
    },
    setDebug: async (hardwareId, on) => {
      const row = await getRuntimeRow(db, hardwareId);
      if (!row) throw new AppError('NotFound');
      if (on && !row.online) throw new AppError('HardwareOffline');
      await setControlDebug(db, hardwareId, { controlDebug: on, at: clock.now() });
      deps.hub.publish('hardware', hardwareId, presentDebugChanged({ hardwareId, controlDebug: on }));
      if (row.online) await commands.publish(hardwareId, { command: 'debug', correlationId: randomUUID(), on });
      return on;
    },
    tokenCreated: (hardwareId, token) => transport.tokenCreated(hardwareId, token),
    tokenRevoked: (hardwareId, tokenId, wasNewest) => transport.tokenRevoked(hardwareId, tokenId, wasNewest),
    hardwareDeleted: async (hardwareId) => {
      const removed = transport.boardDeleted(hardwareId);
      presence.forget(hardwareId);
      props.forget(hardwareId);
      await removed;
    },
    close: async () => {
      closing = true;
      presence.stop();
      commands.close();
      await transport.close();
      queue.stop();
      // The database closes after the gateway: let the last board messages finish first.
      await queue.drain();
      // Held through a database outage: tried for a few seconds more, then reported with counts.
      await writes.finish(deps.logger, STOP_WRITES_WITHIN_MS);
      await invalid.finish(STOP_WRITES_WITHIN_MS);
    },
  };
}

/** A gateway with no broker, for command-line tasks that need AppDeps but no boards. */
export function createDetachedHardwareGateway(): HardwareGateway {
  const refuse = async (): Promise<never> => {
    throw new AppError('HardwareOffline');
  };
  return {
    mqttPort: null,
    isBrokerReady: () => false,
    sendCommand: refuse,
    setDebug: refuse,
    tokenCreated: async () => undefined,
    tokenRevoked: async () => undefined,
    hardwareDeleted: async () => undefined,
    close: async () => undefined,
  };
}
