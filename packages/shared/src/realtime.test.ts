import { describe, expect, it } from 'vitest';
import {
  parseServerMessage,
  REALTIME_EVENTS,
  RealtimeEventSchema,
  ServerMessageSchema,
  type RealtimeEventName,
  type RealtimeEventOf,
  type ServerMessage,
} from './realtime.js';
import { GatewayMessageSchema, parseGatewayMessage, type GatewayMessage } from './sdk-protocol.js';

const EXHIBIT = '00000000-0000-4000-8000-000000000001';
const BOARD = '00000000-0000-4000-8000-000000000002';
const AT = '2026-11-23T10:00:00.000Z';

/** One valid example of every console event: the type makes leaving one out a compile error. */
const EVENT_EXAMPLES: { [N in RealtimeEventName]: RealtimeEventOf<N> } = {
  'exhibit.presenceChanged': { type: 'exhibit.presenceChanged', exhibitId: EXHIBIT, online: true, lastOnlineChange: AT },
  'exhibit.opModeChanged': { type: 'exhibit.opModeChanged', exhibitId: EXHIBIT, opMode: 'On' },
  'exhibit.manifestChanged': { type: 'exhibit.manifestChanged', exhibitId: EXHIBIT },
  'exhibit.statusChanged': { type: 'exhibit.statusChanged', exhibitId: EXHIBIT, statusId: 'count', value: 12 },
  'exhibit.settingChanged': { type: 'exhibit.settingChanged', exhibitId: EXHIBIT, settingId: 'volume', value: 3, applied: true, version: 2 },
  'exhibit.schedulesChanged': { type: 'exhibit.schedulesChanged', exhibitId: EXHIBIT },
  'exhibit.usersChanged': { type: 'exhibit.usersChanged', exhibitId: EXHIBIT },
  'exhibit.logged': { type: 'exhibit.logged', exhibitId: EXHIBIT, log: { level: 'warn', message: '{"fps":12}', eventType: 'warn', createdAt: AT } },
  'exhibit.updated': { type: 'exhibit.updated', exhibitId: EXHIBIT },
  'exhibit.deleted': { type: 'exhibit.deleted', exhibitId: EXHIBIT },
  'exhibit.fileUploaded': { type: 'exhibit.fileUploaded', exhibitId: EXHIBIT, fileName: 'intro.mp4' },
  'exhibit.fileDeleted': { type: 'exhibit.fileDeleted', exhibitId: EXHIBIT, fileName: 'intro.mp4' },
  'hardware.presenceChanged': { type: 'hardware.presenceChanged', hardwareId: BOARD, online: false },
  'hardware.debugChanged': { type: 'hardware.debugChanged', hardwareId: BOARD, controlDebug: true },
  'hardware.statusChanged': {
    type: 'hardware.statusChanged',
    hardwareId: BOARD,
    voltage: 4.9,
    temp: 41.5,
    uptime: 12,
    exhibitState: null,
    exhibitIP: '10.0.0.5',
    updatedAt: AT,
  },
  'hardware.propChanged': {
    type: 'hardware.propChanged',
    hardwareId: BOARD,
    peripheralId: 'relay1',
    periphName: 'Relay',
    propName: 'state',
    propType: 'toggle',
    value: 1,
  },
  'hardware.logged': { type: 'hardware.logged', hardwareId: BOARD, log: { level: 'info', message: 'Firmware update applied', eventType: 'firmware', createdAt: AT } },
  'hardware.updated': { type: 'hardware.updated', hardwareId: BOARD },
  'hardware.deleted': { type: 'hardware.deleted', hardwareId: BOARD },
};

/** What breaks each event: its id is not an id, and (where it has one) a payload field has the wrong type. */
function invalidVariants(event: Record<string, unknown>): Record<string, unknown>[] {
  const idKey = 'exhibitId' in event ? 'exhibitId' : 'hardwareId';
  const variants: Record<string, unknown>[] = [{ ...event, [idKey]: 'not-an-id' }];
  const { [idKey]: _omitted, ...withoutId } = event;
  variants.push(withoutId);
  for (const [key, value] of Object.entries(event)) {
    if (key === 'type' || key === idKey) continue;
    // An object where a value is due, and a value where an object is due.
    variants.push({ ...event, [key]: typeof value === 'object' && value !== null ? 'text' : { nested: [value] } });
  }
  return variants;
}

describe('the console events', () => {
  const names = Object.keys(REALTIME_EVENTS) as RealtimeEventName[];

  it('have one example each in this test, and every name is resource.verb', () => {
    expect(Object.keys(EVENT_EXAMPLES).sort()).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^(exhibit|hardware)\.[a-z][A-Za-z]+$/);
  });

  it.each(names)('%s: a valid payload parses, by its own schema, the union and as a server message', (name) => {
    const example = EVENT_EXAMPLES[name];
    expect(REALTIME_EVENTS[name].parse(example)).toEqual(example);
    expect(RealtimeEventSchema.parse(example)).toEqual(example);
    expect(parseServerMessage(JSON.stringify(example))).toEqual(example);
  });

  it.each(names)('%s: an invalid payload is refused', (name) => {
    for (const variant of invalidVariants(EVENT_EXAMPLES[name])) {
      expect(REALTIME_EVENTS[name].safeParse(variant).success, JSON.stringify(variant)).toBe(false);
      expect(ServerMessageSchema.safeParse(variant).success, JSON.stringify(variant)).toBe(false);
    }
  });

  it('refuses what is not JSON, an unknown type, and an event under another name', () => {
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage(JSON.stringify({ type: 'exhibit.online', exhibitId: EXHIBIT, online: true }))).toBeNull();
    const renamed = { ...EVENT_EXAMPLES['hardware.propChanged'], type: 'hardware.statusChanged' };
    expect(parseServerMessage(JSON.stringify(renamed))).toBeNull();
  });

  it('reads the protocol answers too', () => {
    const answers: ServerMessage[] = [
      { type: 'handshake', authenticated: true, userId: EXHIBIT },
      { type: 'subscribed', exhibitIds: [EXHIBIT], hardwareIds: [], refused: ['garbage'] },
      { type: 'unsubscribed', exhibitIds: [], hardwareIds: [] },
      { type: 'access.changed', exhibitIds: [EXHIBIT], hardwareIds: [] },
      { type: 'error', message: 'Authenticate before subscribing.' },
      { type: 'pong' },
    ];
    for (const answer of answers) expect(parseServerMessage(JSON.stringify(answer))).toEqual(answer);
    expect(parseServerMessage(JSON.stringify({ type: 'subscribed', exhibitIds: 'all' }))).toBeNull();
  });
});

/** One valid example of every message the server sends an exhibit. */
const GATEWAY_EXAMPLES: { [T in GatewayMessage['type']]: Extract<GatewayMessage, { type: T }> } = {
  'auth.ok': { type: 'auth.ok', exhibitId: EXHIBIT, name: 'Volcano' },
  'manifest.ok': { type: 'manifest.ok', requestId: '1' },
  'manifest.error': { type: 'manifest.error', requestId: '1', status: 406, message: 'The manifest is locked.' },
  'exhibit.synced': {
    type: 'exhibit.synced',
    opMode: 'Off',
    settings: [{ settingId: 'volume', value: 3, version: 2 }],
    settingLists: [{ listId: 'scenes', items: [{ listName: 'Intro', order: 0, version: 1, values: { duration: 5 } }] }],
    statuses: [{ statusId: 'count', value: null }],
  },
  'control.fired': { type: 'control.fired', controlId: 'volume', itemId: 'up' },
  'setting.changed': { type: 'setting.changed', settingId: 'kiosk_name', value: 'Lobby', version: 4 },
  'settingList.changed': { type: 'settingList.changed', listId: 'scenes', items: [] },
  'opMode.changed': { type: 'opMode.changed', opMode: 'On' },
  'files.changed': {
    type: 'files.changed',
    files: [
      { name: 'intro.mp4', size: 1024, sha256: 'ab'.repeat(32), updatedAt: AT, organizational: false },
      { name: '[ORG] logo.png', size: 20, sha256: null, updatedAt: AT, organizational: true },
    ],
  },
  error: { type: 'error', message: 'Invalid message: type' },
  pong: { type: 'pong' },
};

describe('what the server sends an exhibit', () => {
  const types = Object.keys(GATEWAY_EXAMPLES) as GatewayMessage['type'][];

  it.each(types)('%s: a valid message parses', (type) => {
    const example = GATEWAY_EXAMPLES[type];
    expect(GatewayMessageSchema.parse(example)).toEqual(example);
    expect(parseGatewayMessage(JSON.stringify(example))).toEqual(example);
  });

  it.each(types.filter((t) => t !== 'pong'))('%s: an invalid message is refused', (type) => {
    const example: Record<string, unknown> = GATEWAY_EXAMPLES[type];
    for (const key of Object.keys(example).filter((k) => k !== 'type')) {
      const broken = { ...example, [key]: { nested: [example[key]] } };
      expect(GatewayMessageSchema.safeParse(broken).success, JSON.stringify(broken)).toBe(false);
    }
  });

  it('refuses the names of the old protocol and nested setting values', () => {
    expect(parseGatewayMessage(JSON.stringify({ type: 'control', id: 'reload' }))).toBeNull();
    expect(parseGatewayMessage(JSON.stringify({ type: 'setting.changed', settingId: 'x', value: { a: 1 }, version: 1 }))).toBeNull();
  });
});
