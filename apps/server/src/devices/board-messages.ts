import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  AnnounceMessageSchema,
  compileSchema,
  DEFAULT_HEARTBEAT_MS,
  FirmwareProgressSchema,
  HEARTBEAT_MISSES_BEFORE_OFFLINE,
  HeartbeatMessageSchema,
  LogMessageSchema,
  parsePayload,
  PropMessageSchema,
  ResultMessageSchema,
  StatusMessageSchema,
  type BoardChannel,
} from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { presentHeartbeat, presentPropChanged } from '../modules/hardware-runtime/hardware-events.presenter.js';
import { recordHardware } from '../modules/logging/records.js';
import type { HardwareEvent } from '../realtime/hub-messages.js';
import { applyAnnounce, finishFirmwareUpdate, getRuntimeRow } from '../modules/hardware-runtime/hardware-state.repository.js';
import type { BoardCommands } from './board-commands.js';
import type { BoardPresence } from './board-presence.js';
import type { BoardPropCatalog } from './board-props.js';
import type { BoardWrites } from './board-writes.js';
import type { InvalidMessages } from './invalid-messages.js';

/** What the board message handlers work with. */
export type BoardMessageContext = {
  deps: Pick<AppDeps, 'db' | 'hub' | 'clock' | 'logs'>;
  presence: Pick<BoardPresence, 'touch' | 'touchHeard' | 'connected' | 'changeOnline'>;
  props: Pick<BoardPropCatalog, 'remember' | 'lookup' | 'find'>;
  writes: Pick<BoardWrites, 'heartbeat' | 'prop'>;
  commands: Pick<BoardCommands, 'publish' | 'settle'>;
  invalid: Pick<InvalidMessages, 'record'>;
  /** Whether other server instances receive this board traffic too (an external broker). */
  isShared: boolean;
};

/**
 * Handles one board message of a channel: its payload is checked, then applied. Answers undefined
 * when it is done already (a refused payload; a heartbeat or prop change of a board this node
 * holds online): the board's queue then keeps nothing for it.
 */
export type BoardMessageHandler = (hardwareId: string, payload: Buffer) => Promise<void> | undefined;

/**
 * The board channels of docs/protocols/hardware-mqtt.md, each a small handler. A payload that
 * fails its channel's schema is dropped, counted and logged (invalid-messages.ts); results reach
 * every instance when the broker is shared, so only the count of the others is kept there.
 */
export function createBoardMessageHandlers(context: BoardMessageContext): ReadonlyMap<string, BoardMessageHandler> {
  const { deps, presence, props, writes, commands } = context;
  const emit = (hardwareId: string, event: HardwareEvent) => deps.hub.publish('hardware', hardwareId, event);
  const handlers = new Map<string, BoardMessageHandler>();
  // A handler reads the clock itself when it needs the time (a prop change does not: no Date is made for it).
  const on = <S extends z.ZodType>(channel: BoardChannel, schema: S, apply: (hardwareId: string, message: z.infer<S>) => Promise<void> | undefined) => {
    const count = !(context.isShared && channel === 'result');
    const parser = compileSchema(schema);
    handlers.set(channel, (hardwareId, payload) => {
      const parsed = parsePayload(parser, payload);
      if (parsed.success) return apply(hardwareId, parsed.data);
      context.invalid.record(hardwareId, { channel, reason: parsed.reason, count });
      return undefined;
    });
  };

  on('status', StatusMessageSchema, async (hardwareId, status) => {
    if (status.online) await presence.connected(hardwareId, status.epoch);
    else await presence.changeOnline(hardwareId, { online: false, reason: 'will', epoch: status.epoch });
  });
  on('announce', AnnounceMessageSchema, async (hardwareId, announce) => {
    const now = deps.clock.now();
    await presence.touch(hardwareId, (announce.heartbeatMs ?? DEFAULT_HEARTBEAT_MS) * HEARTBEAT_MISSES_BEFORE_OFFLINE);
    const row = await applyAnnounce(deps.db, hardwareId, { announce, at: now });
    if (!row) return;
    props.remember(hardwareId, row.peripherals);
    emit(hardwareId, { type: 'hardware.updated', hardwareId });
    // The board learns the debug state the console last chose. A switch made meanwhile (on any
    // server instance) may have been sent before this: read again and send it last.
    await commands.publish(hardwareId, { command: 'debug', correlationId: randomUUID(), on: row.controlDebug });
    const latest = await getRuntimeRow(deps.db, hardwareId);
    if (latest && latest.controlDebug !== row.controlDebug) {
      await commands.publish(hardwareId, { command: 'debug', correlationId: randomUUID(), on: latest.controlDebug });
    }
  });
  const applyHeartbeat = (hardwareId: string, beat: z.infer<typeof HeartbeatMessageSchema>, now: Date) => {
    writes.heartbeat({ hardwareId, beat, at: now });
    emit(hardwareId, presentHeartbeat({ hardwareId, heartbeat: beat, at: now }));
  };
  // A board this node holds online is applied at once; one it does not comes online first.
  on('heartbeat', HeartbeatMessageSchema, (hardwareId, beat) => {
    const now = deps.clock.now();
    if (presence.touchHeard(hardwareId)) {
      applyHeartbeat(hardwareId, beat, now);
      return undefined;
    }
    return presence.touch(hardwareId).then(() => applyHeartbeat(hardwareId, beat, now));
  });
  const applyProp = (hardwareId: string, message: z.infer<typeof PropMessageSchema>, prop: { periphName: string; propType: string }) => {
    const { propType, periphName } = prop;
    const { peripheralId, propName, value } = message;
    emit(hardwareId, presentPropChanged({ hardwareId, peripheralId, periphName, propName, propType, value }));
    writes.prop({ hardwareId, peripheralId, propName, value });
    // Presses and prop changes made on the board feed the hardware report (button, prop).
    const eventType = propType === 'button' ? 'button' : 'prop';
    recordHardware(deps.logs, hardwareId, { eventType, level: 'debug', message: `${periphName} ${propName} = ${JSON.stringify(value)}` });
  };
  // A board online here and a prop it announced here are applied at once; else they are read first.
  on('prop', PropMessageSchema, (hardwareId, message) => {
    const known = presence.touchHeard(hardwareId) ? props.find(hardwareId, message.peripheralId, message.propName) : null;
    if (known) {
      applyProp(hardwareId, message, known);
      return undefined;
    }
    return (async () => {
      await presence.touch(hardwareId);
      const prop = await props.lookup(hardwareId, message.peripheralId, message.propName);
      if (prop) applyProp(hardwareId, message, prop);
    })();
  });
  on('result', ResultMessageSchema, async (hardwareId, result) => {
    await presence.touch(hardwareId);
    commands.settle(hardwareId, result);
  });
  on('firmware', FirmwareProgressSchema, async (hardwareId, progress) => {
    const now = deps.clock.now();
    await presence.touch(hardwareId);
    const text = `Firmware update ${progress.state}${progress.version ? ` (version ${progress.version})` : ''}${progress.error ? `: ${progress.error}` : ''}`;
    const level = progress.state === 'failed' ? 'error' : 'info';
    recordHardware(deps.logs, hardwareId, { eventType: 'firmware', level, message: text });
    if (progress.state === 'applied' || progress.state === 'failed') {
      const report = { correlationId: progress.correlationId, status: progress.state, error: progress.error ?? null, at: now };
      await finishFirmwareUpdate(deps.db, hardwareId, report);
      emit(hardwareId, { type: 'hardware.updated', hardwareId });
    }
  });
  on('log', LogMessageSchema, async (hardwareId, log) => {
    await presence.touch(hardwareId);
    // A line the board queued while offline carries its own time (used when plausible).
    const at = log.timestamp ? new Date(log.timestamp) : undefined;
    deps.logs.record({ source: 'hardware', deviceId: hardwareId, level: log.level, eventType: log.level, message: log.message, at });
  });
  return handlers;
}
