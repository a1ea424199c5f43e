import { describe, expect, it } from 'vitest';
import { BOARD_CHANNELS, type CommandResult, type RealtimeEvent } from '@plinth/shared';
import type { Db } from '../db/client.js';
import { createInProcessHub } from '../realtime/hub.js';
import { createBoardMessageHandlers, type BoardMessageContext } from './board-messages.js';
import type { HeartbeatWrite, PropWrite } from './hardware-ingest.repository.js';
import type { InvalidMessage } from './invalid-messages.js';
import type { LogRecord, LogRecorder } from '../modules/logging/ports.js';

const BOARD = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const NOW = new Date('2026-11-23T12:00:00.000Z');

/** The handlers with in-memory collaborators that record what each message made them do. */
function handlersWith(options: { isShared?: boolean; heard?: boolean } = {}) {
  const calls: string[] = [];
  const events: RealtimeEvent[] = [];
  const heartbeats: HeartbeatWrite[] = [];
  const props: PropWrite[] = [];
  const invalid: (InvalidMessage & { hardwareId: string })[] = [];
  const settled: CommandResult[] = [];
  const records: LogRecord[] = [];
  const logs: LogRecorder = {
    record: (line) => void records.push(line),
    event: () => undefined,
    leaseChanged: () => undefined,
    onRecord: () => () => undefined,
    flush: async () => undefined,
    close: async () => undefined,
  };
  const hub = createInProcessHub();
  hub.subscribe('hardware', BOARD, (event) => events.push(event));
  const context: BoardMessageContext = {
    // The handlers of these tests never reach the database (announce and firmware do; the gateway suites cover them).
    deps: { db: {} as Db, hub, clock: { now: () => NOW }, logs },
    presence: {
      touch: async (hardwareId) => void calls.push(`touch ${hardwareId}`),
      touchHeard: (hardwareId) => {
        calls.push(`heard ${hardwareId}`);
        return options.heard ?? false;
      },
      connected: async (hardwareId) => void calls.push(`connected ${hardwareId}`),
      changeOnline: async (hardwareId, { online, reason }) => void calls.push(`online ${hardwareId} ${online} ${reason}`),
    },
    props: {
      remember: () => undefined,
      // This node knows relay1 (as after its announce); the database also knows button1.
      find: (_hardwareId, peripheralId, propName) => (peripheralId === 'relay1' && propName === 'state' ? { periphName: 'Relay', propType: 'toggle' } : null),
      lookup: async (_hardwareId, peripheralId, propName) => {
        calls.push(`lookup ${peripheralId}`);
        if (peripheralId === 'button1' && propName === 'pressed') return { periphName: 'Button', propType: 'button' };
        return peripheralId === 'relay1' && propName === 'state' ? { periphName: 'Relay', propType: 'toggle' } : null;
      },
    },
    writes: { heartbeat: (write) => void heartbeats.push(write), prop: (write) => void props.push(write) },
    commands: { publish: async () => undefined, settle: (_hardwareId, result) => void settled.push(result) },
    invalid: { record: (hardwareId, message) => void invalid.push({ hardwareId, ...message }) },
    isShared: options.isShared ?? false,
  };
  const handlers = createBoardMessageHandlers(context);
  const send = (channel: string, payload: unknown) => handlers.get(channel)!(BOARD, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)));
  return { handlers, send, calls, events, heartbeats, props, invalid, settled, records };
}

describe('board message handlers', () => {
  it('has one handler per board channel, and none for the server’s own cmd', () => {
    const { handlers } = handlersWith();
    expect([...handlers.keys()].sort()).toEqual([...BOARD_CHANNELS].sort());
    expect(handlers.has('cmd')).toBe(false);
  });

  it('touches the board, queues the heartbeat for the batched write and pushes it to consoles at once', async () => {
    const { send, calls, heartbeats, events } = handlersWith();
    const beat = { voltage: 5, temp: 21, uptime: 3, exhibitState: 'running', exhibitIP: '10.0.0.2' };
    await send('heartbeat', beat);
    expect(calls).toEqual([`heard ${BOARD}`, `touch ${BOARD}`]);
    expect(heartbeats).toEqual([{ hardwareId: BOARD, beat, at: NOW }]);
    expect(events).toEqual([{ type: 'hardware.statusChanged', hardwareId: BOARD, ...beat, updatedAt: NOW.toISOString() }]);
  });

  it('applies a heartbeat and a known prop change of a board held online at once, with nothing to wait for', () => {
    const { send, calls, heartbeats, events, props, records } = handlersWith({ heard: true });
    const beat = { voltage: 5, temp: 21, uptime: 3, exhibitState: 'running', exhibitIP: '10.0.0.2' };
    expect(send('heartbeat', beat)).toBeUndefined();
    expect(send('prop', { peripheralId: 'relay1', propName: 'state', value: 0 })).toBeUndefined();
    expect(calls).toEqual([`heard ${BOARD}`, `heard ${BOARD}`]);
    expect(heartbeats).toEqual([{ hardwareId: BOARD, beat, at: NOW }]);
    expect(props).toEqual([{ hardwareId: BOARD, peripheralId: 'relay1', propName: 'state', value: 0 }]);
    expect(events.map((e) => e.type)).toEqual(['hardware.statusChanged', 'hardware.propChanged']);
    expect(records).toEqual([{ source: 'hardware', deviceId: BOARD, level: 'debug', eventType: 'prop', message: 'Relay state = 0' }]);
  });

  it('reads a prop this node does not know before applying it, even for a board held online', async () => {
    const { send, calls, events, records } = handlersWith({ heard: true });
    const pending = send('prop', { peripheralId: 'button1', propName: 'pressed', value: true });
    expect(pending).toBeInstanceOf(Promise);
    expect(events).toEqual([]);
    await pending;
    expect(calls).toEqual([`heard ${BOARD}`, `touch ${BOARD}`, 'lookup button1']);
    expect(events).toEqual([{ type: 'hardware.propChanged', hardwareId: BOARD, peripheralId: 'button1', propType: 'button', propName: 'pressed', value: true, periphName: 'Button' }]);
    expect(records).toEqual([{ source: 'hardware', deviceId: BOARD, level: 'debug', eventType: 'button', message: 'Button pressed = true' }]);
  });

  it('names a prop change from the known peripherals, and drops one of a prop nobody announced', async () => {
    const { send, props, events, records } = handlersWith();
    await send('prop', { peripheralId: 'relay1', propName: 'state', value: 1 });
    await send('prop', { peripheralId: 'ghost', propName: 'state', value: 1 });
    expect(events).toEqual([{ type: 'hardware.propChanged', hardwareId: BOARD, peripheralId: 'relay1', propType: 'toggle', propName: 'state', value: 1, periphName: 'Relay' }]);
    expect(props).toEqual([{ hardwareId: BOARD, peripheralId: 'relay1', propName: 'state', value: 1 }]);
    expect(records).toEqual([{ source: 'hardware', deviceId: BOARD, level: 'debug', eventType: 'prop', message: 'Relay state = 1' }]);
  });

  it('records the board’s log lines with their level as event type, and its own time when it gives one', async () => {
    const { send, records, events } = handlersWith();
    await send('log', { level: 'warn', message: 'low battery' });
    await send('log', { level: 'info', message: 'queued', timestamp: '2026-11-23T11:59:00.000Z' });
    expect(records).toEqual([
      { source: 'hardware', deviceId: BOARD, level: 'warn', eventType: 'warn', message: 'low battery', at: undefined },
      { source: 'hardware', deviceId: BOARD, level: 'info', eventType: 'info', message: 'queued', at: new Date('2026-11-23T11:59:00.000Z') },
    ]);
    // Live consoles get them from the recorder, only while someone leases the board's live log.
    expect(events).toEqual([]);
  });

  it('marks a connect online whatever was heard before, and a will offline', async () => {
    const { send, calls } = handlersWith();
    await send('status', { online: true });
    await send('status', { online: false });
    expect(calls).toEqual([`connected ${BOARD}`, `online ${BOARD} false will`]);
  });

  it('settles the command a result answers', async () => {
    const { send, settled } = handlersWith();
    const correlationId = '0b7e8f0a-1c2d-4e3f-9a8b-7c6d5e4f3a2b';
    await send('result', { correlationId, ok: true });
    expect(settled).toEqual([expect.objectContaining({ correlationId, ok: true })]);
  });

  it('drops a payload that fails its channel’s schema and counts it, touching nothing', async () => {
    const { send, calls, heartbeats, events, invalid } = handlersWith();
    await send('heartbeat', { voltage: 'high' });
    await send('log', 'not json');
    expect(calls).toEqual([]);
    expect(heartbeats).toEqual([]);
    expect(events).toEqual([]);
    expect(invalid).toEqual([
      { hardwareId: BOARD, channel: 'heartbeat', reason: expect.stringContaining('voltage'), count: true },
      { hardwareId: BOARD, channel: 'log', reason: 'payload: not JSON', count: true },
    ]);
  });

  it('with a shared broker, logs a bad result without counting it (every instance receives results)', async () => {
    const { send, invalid } = handlersWith({ isShared: true });
    await send('result', { ok: 'yes' });
    await send('log', { level: 'loud' });
    expect(invalid.map((i) => [i.channel, i.count])).toEqual([
      ['result', false],
      ['log', true],
    ]);
  });
});
