import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  AnnounceMessageSchema,
  COMMAND_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_MS,
  FirmwareProgressSchema,
  HEARTBEAT_MISSES_BEFORE_OFFLINE,
  HeartbeatMessageSchema,
  Id,
  LogMessageSchema,
  MQTT_TOPIC_ROOT,
  PropMessageSchema,
  ResultMessageSchema,
  StatusMessageSchema,
  hardwareTopic,
  parseHardwareTopic,
  parsePayload,
  topicFor,
  type BoardChannel,
  type CommandMessage,
  type CommandResult,
  type Peripheral,
  type RealtimeEvent,
} from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/app-error.js';
import { describeFailure } from '../lib/describe-failure.js';
import {
  applyAnnounce,
  finishFirmwareUpdate,
  getRuntimeRow,
  listOnlineIds,
  setAllOffline,
  setControlDebug,
  setOnline,
  verifyHardwareToken,
  type ConnectionReason,
} from '../modules/hardware-runtime/hardware-state.repository.js';
import {
  readLastWrite,
  readPeripherals,
  writeAndLogFailures,
  writeHeartbeats,
  writePropValues,
  type HeartbeatWrite,
  type PropWrite,
} from './hardware-ingest.repository.js';
import { createInvalidMessages } from './invalid-messages.js';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-broker.js';
import { createDynsecProvisioner, type DynsecProvisioner } from './mqtt-dynsec.js';
import { connectMqttLink, createInProcessLink, type MqttLink } from './mqtt-link.js';

/** A command without its correlation id, which the gateway adds. */
export type OutgoingCommand = CommandMessage extends infer C ? (C extends CommandMessage ? Omit<C, 'correlationId'> : never) : never;

/**
 * The hardware side: the MQTT broker (embedded aedes, or MQTT_URL) and the board protocol of
 * docs/protocols/hardware-mqtt.md. It keeps each board's row (online, status, versions,
 * peripherals) up to date, publishes the hub's hardware.* events, and sends commands whose
 * outcome comes back by correlation id.
 */
export type HardwareGateway = {
  /** The embedded broker's port, or null when an external broker is used. */
  mqttPort: number | null;
  /**
   * Sends a command (QoS 1) and waits for the board's result. A board that does not answer in
   * time gives { ok: false, error: 'timeout' }.
   */
  sendCommand: (hardwareId: string, command: OutgoingCommand, options?: { timeoutMs?: number; correlationId?: string }) => Promise<CommandResult>;
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

export type HardwareGatewayOptions = {
  /** How often silent boards are looked for, in ms. */
  watchdogMs?: number;
  commandTimeoutMs?: number;
  /** How long heartbeats gather before they are stored together, in ms. */
  heartbeatFlushMs?: number;
};

/** Heartbeats stored in one statement at most (7 parameters each, well under PostgreSQL's 65,535). */
const HEARTBEAT_BATCH = 1000;

type Pending = { hardwareId: string; resolve: (result: CommandResult) => void; timer: NodeJS.Timeout };

export async function startHardwareGateway(deps: AppDeps, options: HardwareGatewayOptions = {}): Promise<HardwareGateway> {
  const { db, hub, clock, logger } = deps;
  const commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const pending = new Map<string, Pending>();
  /** When each board last spoke (ms) and how long it may stay silent. */
  const lastSeen = new Map<string, { at: number; windowMs: number }>();
  /** Per-board queue, so one board's messages are applied in order. */
  const queues = new Map<string, Promise<void>>();
  const emit = (hardwareId: string, event: RealtimeEvent) => hub.publish(topicFor('hardware', hardwareId), event);

  let broker: EmbeddedBroker | null = null;
  /** With an external broker, other server instances may be handling part of each board's traffic. */
  const isShared = Boolean(deps.config.MQTT_URL);
  let link: MqttLink;
  let dynsec: DynsecProvisioner | null = null;

  const changeOnline = async (hardwareId: string, online: boolean, reason: ConnectionReason) => {
    if (!online) lastSeen.delete(hardwareId);
    if (await setOnline(db, hardwareId, online, reason, clock.now())) {
      emit(hardwareId, { type: 'hardware.online', hardwareId, online });
      logger.debug({ hardwareId, online, reason }, 'hardware online change');
    }
  };

  const touch = async (hardwareId: string, windowMs?: number, reason: ConnectionReason = 'message') => {
    const known = lastSeen.get(hardwareId);
    lastSeen.set(hardwareId, {
      at: Date.now(),
      windowMs: windowMs ?? known?.windowMs ?? DEFAULT_HEARTBEAT_MS * HEARTBEAT_MISSES_BEFORE_OFFLINE,
    });
    if (!known) await changeOnline(hardwareId, true, reason);
  };

  // Heartbeats are the bulk of board traffic: they are pushed to consoles at once and stored
  // together, the newest per board, every heartbeatFlushMs (or sooner when many wait).
  const heartbeatFlushMs = options.heartbeatFlushMs ?? 100;
  const heartbeats = new Map<string, HeartbeatWrite>();
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let heartbeatFlush: Promise<void> = Promise.resolve();
  const flushHeartbeats = () => {
    if (heartbeatTimer) clearTimeout(heartbeatTimer);
    heartbeatTimer = null;
    if (!heartbeats.size) return heartbeatFlush;
    const batch = [...heartbeats.values()];
    heartbeats.clear();
    heartbeatFlush = heartbeatFlush.then(async () => {
      for (let i = 0; i < batch.length; i += HEARTBEAT_BATCH) {
        const part = batch.slice(i, i + HEARTBEAT_BATCH);
        await writeAndLogFailures(logger, 'storing heartbeats failed', () => writeHeartbeats(db, part));
      }
    });
    return heartbeatFlush;
  };
  const storeHeartbeat = (write: HeartbeatWrite) => {
    heartbeats.set(write.hardwareId, write);
    if (heartbeats.size >= HEARTBEAT_BATCH) void flushHeartbeats();
    else heartbeatTimer ??= setTimeout(() => void flushHeartbeats(), heartbeatFlushMs);
  };

  const invalid = createInvalidMessages(deps, { flushMs: heartbeatFlushMs });
  /**
   * A board's payload read against its channel's schema; one that fails is dropped, counted and
   * logged (invalid-messages.ts). Results reach every instance when the broker is shared, so
   * only the count of the others is kept there.
   */
  const read = <T extends z.ZodType>(hardwareId: string, channel: BoardChannel, schema: T, payload: Buffer): z.infer<T> | null => {
    const parsed = parsePayload(schema, payload);
    if (parsed.success) return parsed.data;
    invalid.record(hardwareId, channel, parsed.reason, { count: !(isShared && channel === 'result') });
    return null;
  };

  // Prop changes are pushed to consoles as soon as they arrive; storing them is batched like
  // heartbeats (the newest value per prop, every heartbeatFlushMs), so a busy database never
  // delays the live view. Names and types for the event come from each board's announced
  // peripherals, kept in memory (read from the database once after a restart).
  const boardProps = new Map<string, Map<string, { name: string; types: Map<string, string> }>>();
  const rememberPeripherals = (hardwareId: string, peripherals: Peripheral[]) => {
    boardProps.set(
      hardwareId,
      new Map(peripherals.map((p) => [p.id, { name: p.name, types: new Map(p.props.map((prop) => [prop.name, prop.type])) }])),
    );
  };
  /**
   * The name and type of a board's prop. One this instance does not know is looked up again: the
   * board may have announced it through another server instance.
   */
  const lookupProp = async (hardwareId: string, peripheralId: string, propName: string) => {
    const find = () => {
      const peripheral = boardProps.get(hardwareId)?.get(peripheralId);
      const propType = peripheral?.types.get(propName);
      return peripheral && propType !== undefined ? { periphName: peripheral.name, propType } : null;
    };
    const known = find();
    if (known) return known;
    rememberPeripherals(hardwareId, await readPeripherals(db, hardwareId));
    return find();
  };
  const propWrites = new Map<string, PropWrite>();
  let propTimer: NodeJS.Timeout | null = null;
  let propFlush: Promise<void> = Promise.resolve();
  const flushProps = () => {
    if (propTimer) clearTimeout(propTimer);
    propTimer = null;
    if (!propWrites.size) return propFlush;
    const batch = [...propWrites.values()];
    propWrites.clear();
    propFlush = propFlush.then(async () => {
      // One prop per board per statement (an UPDATE changes each row once).
      let rest = batch;
      while (rest.length) {
        const seen = new Set<string>();
        const now: PropWrite[] = [];
        const later: PropWrite[] = [];
        for (const write of rest) {
          if (seen.has(write.hardwareId) || now.length >= HEARTBEAT_BATCH) later.push(write);
          else {
            seen.add(write.hardwareId);
            now.push(write);
          }
        }
        await writeAndLogFailures(logger, 'storing prop values failed', () => writePropValues(db, now));
        rest = later;
      }
    });
    return propFlush;
  };
  const storeProp = (write: PropWrite) => {
    propWrites.set(`${write.hardwareId}|${write.peripheralId}|${write.propName}`, write);
    if (propWrites.size >= HEARTBEAT_BATCH) void flushProps();
    else propTimer ??= setTimeout(() => void flushProps(), heartbeatFlushMs);
  };

  let closing = false;
  const enqueue = (hardwareId: string, work: () => Promise<void>) => {
    if (closing) return;
    const previous = queues.get(hardwareId) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => logger.error({ failure: describeFailure(error), hardwareId }, 'hardware message failed'));
    queues.set(hardwareId, next);
    void next.then(() => {
      if (queues.get(hardwareId) === next) queues.delete(hardwareId);
    });
  };

  const publishCommand = async (hardwareId: string, command: CommandMessage) => {
    await link.publish(hardwareTopic(hardwareId, 'cmd'), JSON.stringify(command), 1);
  };

  const handle = async (hardwareId: string, channel: string, payload: Buffer) => {
    const now = clock.now();
    switch (channel) {
      case 'status': {
        const status = read(hardwareId, 'status', StatusMessageSchema, payload);
        if (!status) return;
        if (status.online) {
          // A connect is online whatever this instance last heard: the offline before it may
          // have been handled by another server instance.
          const known = lastSeen.get(hardwareId);
          lastSeen.set(hardwareId, { at: Date.now(), windowMs: known?.windowMs ?? DEFAULT_HEARTBEAT_MS * HEARTBEAT_MISSES_BEFORE_OFFLINE });
          await changeOnline(hardwareId, true, 'connect');
        } else await changeOnline(hardwareId, false, 'will');
        return;
      }
      case 'announce': {
        const announce = read(hardwareId, 'announce', AnnounceMessageSchema, payload);
        if (!announce) return;
        const windowMs = (announce.heartbeatMs ?? DEFAULT_HEARTBEAT_MS) * HEARTBEAT_MISSES_BEFORE_OFFLINE;
        await touch(hardwareId, windowMs);
        const row = await applyAnnounce(db, hardwareId, announce, now);
        if (!row) return;
        rememberPeripherals(hardwareId, row.peripherals);
        emit(hardwareId, { type: 'hardware.updated', hardwareId });
        // The board learns the debug state the console last chose. A switch made meanwhile (on
        // any server instance) may have been sent before this: read again and send it last.
        await publishCommand(hardwareId, { command: 'debug', correlationId: randomUUID(), on: row.controlDebug });
        const latest = await getRuntimeRow(db, hardwareId);
        if (latest && latest.controlDebug !== row.controlDebug) {
          await publishCommand(hardwareId, { command: 'debug', correlationId: randomUUID(), on: latest.controlDebug });
        }
        return;
      }
      case 'heartbeat': {
        const beat = read(hardwareId, 'heartbeat', HeartbeatMessageSchema, payload);
        if (!beat) return;
        await touch(hardwareId);
        storeHeartbeat({ hardwareId, beat, at: now });
        emit(hardwareId, { type: 'hardware.status', hardwareId, ...beat, updatedAt: now.toISOString() });
        return;
      }
      case 'prop': {
        const message = read(hardwareId, 'prop', PropMessageSchema, payload);
        if (!message) return;
        await touch(hardwareId);
        const prop = await lookupProp(hardwareId, message.peripheralId, message.propName);
        if (!prop) return;
        emit(hardwareId, {
          type: 'hardware.prop',
          hardwareId,
          propType: prop.propType,
          propName: message.propName,
          propValue: message.value,
          periphName: prop.periphName,
        });
        storeProp({ hardwareId, peripheralId: message.peripheralId, propName: message.propName, value: message.value });
        return;
      }
      case 'result': {
        const result = read(hardwareId, 'result', ResultMessageSchema, payload);
        if (!result) return;
        await touch(hardwareId);
        const waiting = pending.get(result.correlationId);
        if (!waiting || waiting.hardwareId !== hardwareId) return;
        pending.delete(result.correlationId);
        clearTimeout(waiting.timer);
        waiting.resolve(result);
        return;
      }
      case 'firmware': {
        const progress = read(hardwareId, 'firmware', FirmwareProgressSchema, payload);
        if (!progress) return;
        await touch(hardwareId);
        const text = `Firmware update ${progress.state}${progress.version ? ` (version ${progress.version})` : ''}${progress.error ? `: ${progress.error}` : ''}`;
        emit(hardwareId, {
          type: 'hardware.log',
          hardwareId,
          log: { level: progress.state === 'failed' ? 'error' : 'info', message: text, createdAt: now.toISOString() },
        });
        if (progress.state === 'applied' || progress.state === 'failed') {
          await finishFirmwareUpdate(db, hardwareId, progress.correlationId, progress.state, progress.error ?? null, now);
          emit(hardwareId, { type: 'hardware.updated', hardwareId });
        }
        return;
      }
      case 'log': {
        const log = read(hardwareId, 'log', LogMessageSchema, payload);
        if (!log) return;
        await touch(hardwareId);
        emit(hardwareId, { type: 'hardware.log', hardwareId, log: { ...log, createdAt: now.toISOString() } });
        return;
      }
      default:
        return;
    }
  };

  const onMessage = (topic: string, payload: Buffer) => {
    const parsed = parseHardwareTopic(topic);
    // A board id that is not a UUID names no board (and would fail the batched writes' ::uuid).
    if (!parsed || parsed.channel === 'cmd' || !Id.safeParse(parsed.hardwareId).success) return;
    enqueue(parsed.hardwareId, () => handle(parsed.hardwareId, parsed.channel, payload));
  };

  if (deps.config.MQTT_URL) {
    const external = await connectMqttLink(deps.config.MQTT_URL);
    link = external;
    const username = decodeURIComponent(new URL(deps.config.MQTT_URL).username);
    if (username) {
      dynsec = await createDynsecProvisioner(external.client);
    }
    // Boards that were online stay so until their window passes in silence.
    for (const id of await listOnlineIds(db)) {
      lastSeen.set(id, { at: Date.now(), windowMs: DEFAULT_HEARTBEAT_MS * HEARTBEAT_MISSES_BEFORE_OFFLINE });
    }
    // Results go to every instance (only the one that sent the command is waiting); the rest is shared.
    await link.subscribe(`${MQTT_TOPIC_ROOT}/+/result`, onMessage);
    for (const channel of ['status', 'announce', 'heartbeat', 'prop', 'firmware', 'log']) {
      await link.subscribe(`${MQTT_TOPIC_ROOT}/+/${channel}`, onMessage, { shared: true });
    }
  } else {
    await setAllOffline(db, clock.now());
    broker = await startEmbeddedBroker({
      port: deps.config.MQTT_PORT,
      host: deps.config.MQTT_HOST,
      logger,
      authenticateBoard: (hardwareId, token) => verifyHardwareToken(db, hardwareId, token),
      onBoardDisconnected: (session) => {
        if (broker?.isConnected(session.hardwareId)) return;
        enqueue(session.hardwareId, () => changeOnline(session.hardwareId, false, 'disconnect'));
      },
    });
    link = createInProcessLink(broker.broker);
    await link.subscribe(`${MQTT_TOPIC_ROOT}/+/+`, onMessage);
  }

  /**
   * A board this instance has not heard within its window. With shared board traffic another
   * instance may be hearing it (the broker can hand all its heartbeats to one instance): it is
   * offline only when its row shows no write within the window either.
   */
  const timeOut = async (hardwareId: string, windowMs: number) => {
    if (isShared) {
      const heardAt = await readLastWrite(db, hardwareId);
      const silentMs = heardAt ? clock.now().getTime() - heardAt.getTime() : Number.POSITIVE_INFINITY;
      if (silentMs <= windowMs) {
        if (!lastSeen.has(hardwareId)) lastSeen.set(hardwareId, { at: Date.now() - Math.max(0, silentMs), windowMs });
        return;
      }
    }
    await changeOnline(hardwareId, false, 'timeout');
  };

  const watchdogMs = options.watchdogMs ?? 250;
  const watchdog = setInterval(() => {
    const now = Date.now();
    for (const [hardwareId, seen] of lastSeen) {
      if (now - seen.at <= seen.windowMs) continue;
      lastSeen.delete(hardwareId);
      enqueue(hardwareId, () => timeOut(hardwareId, seen.windowMs));
    }
  }, watchdogMs);
  watchdog.unref();

  const sendCommand: HardwareGateway['sendCommand'] = async (hardwareId, command, sendOptions = {}) => {
    const correlationId = sendOptions.correlationId ?? randomUUID();
    const timeoutMs = sendOptions.timeoutMs ?? commandTimeoutMs;
    const result = new Promise<CommandResult>((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(correlationId);
        resolve({ correlationId, ok: false, error: 'timeout' });
      }, timeoutMs);
      pending.set(correlationId, { hardwareId, resolve, timer });
    });
    try {
      await publishCommand(hardwareId, { ...command, correlationId } as CommandMessage);
    } catch (error) {
      const waiting = pending.get(correlationId);
      if (waiting) clearTimeout(waiting.timer);
      pending.delete(correlationId);
      throw error;
    }
    return result;
  };

  return {
    mqttPort: broker?.port ?? null,
    sendCommand,
    setDebug: async (hardwareId, on) => {
      const row = await getRuntimeRow(db, hardwareId);
      if (!row) throw new AppError('NotFound');
      if (on && !row.online) throw new AppError('HardwareOffline');
      await setControlDebug(db, hardwareId, on, clock.now());
      emit(hardwareId, { type: 'hardware.debug', id: hardwareId, controlDebug: on });
      if (row.online) await publishCommand(hardwareId, { command: 'debug', correlationId: randomUUID(), on });
      return on;
    },
    tokenCreated: async (hardwareId, token) => {
      await dynsec?.provisionBoard(hardwareId, token);
    },
    tokenRevoked: async (hardwareId, tokenId, wasNewest) => {
      if (broker) {
        broker.dropSessions(hardwareId, tokenId);
      } else if (dynsec && wasNewest) {
        // With Mosquitto the board's broker password is its newest token (docs/protocols/hardware-mqtt.md).
        await dynsec.revokeBoard(hardwareId);
      }
    },
    hardwareDeleted: async (hardwareId) => {
      broker?.dropSessions(hardwareId);
      lastSeen.delete(hardwareId);
      boardProps.delete(hardwareId);
      await dynsec?.deleteBoard(hardwareId);
    },
    close: async () => {
      closing = true;
      clearInterval(watchdog);
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.resolve({ correlationId: id, ok: false, error: 'server stopping' });
      }
      pending.clear();
      await link.close();
      await broker?.close();
      // The database closes after the gateway: let the last board messages finish first.
      await Promise.allSettled([...queues.values()]);
      await flushHeartbeats();
      await flushProps();
      await invalid.flush();
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
    sendCommand: refuse,
    setDebug: refuse,
    tokenCreated: async () => undefined,
    tokenRevoked: async () => undefined,
    hardwareDeleted: async () => undefined,
    close: async () => undefined,
  };
}
