import { z } from 'zod';
import type { SchemaParser } from './compiled-schema.js';
import { describeUnsafeText, findUnsafeTextInJson, formatFieldPath } from './text.js';

/**
 * The hardware MQTT protocol (docs/protocols/hardware-mqtt.md). Every topic of a board sits under
 * `plinth/hw/<hardwareId>/`; a board connects with username = hardware id, password = a hardware
 * token, and may publish and subscribe only under its own prefix.
 */
export const MQTT_TOPIC_ROOT = 'plinth/hw';

/** What a board publishes (board to server). */
export const BOARD_CHANNELS = ['status', 'announce', 'heartbeat', 'prop', 'result', 'firmware', 'log'] as const;
export type BoardChannel = (typeof BOARD_CHANNELS)[number];
/** What the server publishes to a board. */
export const SERVER_CHANNELS = ['cmd'] as const;
export type ServerChannel = (typeof SERVER_CHANNELS)[number];

/** The topic of one channel of one board. */
export function hardwareTopic(hardwareId: string, channel: BoardChannel | ServerChannel): string {
  return `${MQTT_TOPIC_ROOT}/${hardwareId}/${channel}`;
}

const TOPIC_PREFIX = `${MQTT_TOPIC_ROOT}/`;

/** What every topic of one board starts with: `plinth/hw/<id>/`. */
export function hardwareTopicPrefix(hardwareId: string): string {
  return `${TOPIC_PREFIX}${hardwareId}/`;
}

/**
 * Whether `topic` is one of the board channels under `prefix` (hardwareTopicPrefix), that is one
 * of the topics that board may publish. Compared in place: the embedded broker asks it of every
 * message, and keeping each board's seven topics in a set cost about 1 KB of heap a board.
 */
export function isBoardChannelTopic(topic: string, prefix: string): boolean {
  if (!topic.startsWith(prefix)) return false;
  const length = topic.length - prefix.length;
  for (const channel of BOARD_CHANNELS) {
    if (channel.length === length && topic.endsWith(channel)) return true;
  }
  return false;
}

/**
 * Splits `plinth/hw/<id>/<channel>`; null for anything else. Read by position, not split: it
 * runs for every message a board sends, and split made five strings and an array of each topic.
 */
export function parseHardwareTopic(topic: string): { hardwareId: string; channel: string } | null {
  if (!topic.startsWith(TOPIC_PREFIX)) return null;
  const slash = topic.indexOf('/', TOPIC_PREFIX.length);
  if (slash <= TOPIC_PREFIX.length || slash === topic.length - 1 || topic.includes('/', slash + 1)) return null;
  return { hardwareId: topic.slice(TOPIC_PREFIX.length, slash), channel: topic.slice(slash + 1) };
}

/** Default time between two heartbeats of a board, in ms (a board may announce its own). */
export const DEFAULT_HEARTBEAT_MS = 16_000;
/** A board silent for this many heartbeat intervals is offline. */
export const HEARTBEAT_MISSES_BEFORE_OFFLINE = 2.5;
/** How long the server waits for a board's result to a command, in ms. */
export const COMMAND_TIMEOUT_MS = 10_000;

/**
 * Prop types a board may announce. button: read-only pressed/idle (0/1); trigger: set 1 to fire;
 * toggle: 0/1; text: characters (max = buffer size including the trailing null); number, uint,
 * int: numbers (displayType hex, bin, int, uint); led: "brightness,r,g,b"; addressable_led:
 * "index,brightness,white,r,g,b".
 */
export const PROP_TYPES = ['button', 'trigger', 'toggle', 'text', 'number', 'uint', 'int', 'led', 'addressable_led'] as const;
export type PropType = (typeof PROP_TYPES)[number];
export const DISPLAY_TYPES = ['hex', 'bin', 'int', 'uint'] as const;

/** Number of comma-separated values of the LED prop types. */
export const LED_VALUE_COUNT = { led: 4, addressable_led: 6 } as const;

const PropValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const BoolString = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => String(v));

/** A prop as a board announces it. settable and hide may be booleans or 'true'/'false'. */
export const BoardPropSchema = z.object({
  name: z.string().min(1).max(64),
  type: z.string().min(1).max(32),
  value: PropValue,
  settable: BoolString.default('false'),
  hide: BoolString.default('false'),
  min: z.number().nullable().default(null),
  max: z.number().nullable().default(null),
  displayType: z.string().max(16).nullable().default(null),
});
export type BoardProp = z.infer<typeof BoardPropSchema>;

export const BoardPeripheralSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(128),
  /** The peripheral's kind (button, relay, led, ...), for people. */
  type: z.string().max(32).optional(),
  props: z.array(BoardPropSchema).max(64),
});
export type BoardPeripheral = z.infer<typeof BoardPeripheralSchema>;

/**
 * `status`: {online:true} after connecting; the last will carries {online:false}. `epoch` names the
 * connection (a number that grows with every connection of the board: its boot count, or the time
 * it connected in ms) and is the same in that connection's will: a status of an older connection
 * than the newest one applied is ignored, so a late will never marks a reconnected board offline.
 */
export const StatusMessageSchema = z.object({ online: z.boolean(), epoch: z.number().int().nonnegative().optional() });

/** `announce`: sent after every connect and in answer to `get`. */
export const AnnounceMessageSchema = z.object({
  plinth_fw: z.string().max(32).nullable(),
  user_fw: z.string().max(32).nullable(),
  ip: z.string().max(64).nullable(),
  mac: z.string().max(64).nullable(),
  /** The board's heartbeat interval in ms (the server's offline window follows it). */
  heartbeatMs: z.number().int().min(50).max(3_600_000).optional(),
  peripherals: z.array(BoardPeripheralSchema).max(256),
});
export type AnnounceMessage = z.infer<typeof AnnounceMessageSchema>;

/** `heartbeat`: the spec's hardware status message. */
export const HeartbeatMessageSchema = z.object({
  voltage: z.number().nullable().default(null),
  temp: z.number().nullable().default(null),
  /** Minutes since boot. */
  uptime: z.number().nullable().default(null),
  exhibitState: z.string().max(256).nullable().default(null),
  exhibitIP: z.string().max(64).nullable().default(null),
});
export type HeartbeatMessage = z.infer<typeof HeartbeatMessageSchema>;

/** `prop`: a prop's value changed on the board (also the echo of a prop set). */
export const PropMessageSchema = z.object({
  peripheralId: z.string().min(1).max(64),
  propName: z.string().min(1).max(64),
  value: PropValue,
});
export type PropMessage = z.infer<typeof PropMessageSchema>;

/** `log`: a line from the board, shown in the hardware's live log. */
export const LogMessageSchema = z.object({
  level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  message: z.string().max(4096),
  /** When the board logged it (ISO 8601), for lines sent late after a reconnect; arrival time when absent. */
  timestamp: z.iso.datetime({ offset: true }).optional(),
});
export type LogMessage = z.infer<typeof LogMessageSchema>;

/** `result`: the outcome of one command, matched by its correlation id. */
export const ResultMessageSchema = z.object({
  correlationId: z.string().min(1).max(64),
  ok: z.boolean(),
  error: z.string().max(1024).optional(),
  data: z.unknown().optional(),
});
export type ResultMessage = z.infer<typeof ResultMessageSchema>;

export const FIRMWARE_STATES = ['downloading', 'verifying', 'applied', 'failed'] as const;
/** `firmware`: progress of a firmware update started by a `firmware` command. */
export const FirmwareProgressSchema = z.object({
  correlationId: z.string().min(1).max(64),
  state: z.enum(FIRMWARE_STATES),
  version: z.string().max(32).optional(),
  error: z.string().max(1024).optional(),
});
export type FirmwareProgress = z.infer<typeof FirmwareProgressSchema>;

/** Commands the server sends on `cmd` (QoS 1), each with a correlation id the result carries back. */
export const CommandMessageSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('reboot'), correlationId: z.string() }),
  z.object({ command: z.literal('identify'), correlationId: z.string() }),
  /** Re-announce every value (Sync Hardware Values). */
  z.object({ command: z.literal('get'), correlationId: z.string() }),
  z.object({ command: z.literal('debug'), correlationId: z.string(), on: z.boolean() }),
  z.object({
    command: z.literal('set'),
    correlationId: z.string(),
    peripheralId: z.string(),
    propName: z.string(),
    value: PropValue,
  }),
  z.object({
    command: z.literal('firmware'),
    correlationId: z.string(),
    /** plinth = .gbm0 (plinth_fw), user = .gbm4 (user_fw). */
    kind: z.enum(['plinth', 'user']),
    version: z.string(),
    /** HTTP(S) address to download from with `Authorization: Basic base64(hardwareId:token)`. */
    url: z.string(),
    sha256: z.string(),
    size: z.number().int(),
  }),
]);
export type CommandMessage = z.infer<typeof CommandMessageSchema>;
export type CommandName = CommandMessage['command'];
/** Commands the console fires with GET /hardware-mgmt/hardware/{id}/{command}. */
export const HARDWARE_COMMANDS = ['reboot', 'identify', 'get'] as const;
export type HardwareCommand = (typeof HARDWARE_COMMANDS)[number];

/** A payload read against its schema, or why it was refused. */
export type ParsedPayload<T> = { success: true; data: T } | { success: false; reason: string };

/**
 * Parses a JSON MQTT payload against a schema. Text PostgreSQL cannot store (findUnsafeText) is
 * refused like any other invalid field. On failure the reason names the field and the rule
 * (`exhibitState: must not contain a NUL character (\u0000)`), never the payload's values.
 */
export function parsePayload<T>(schema: SchemaParser<T>, payload: Uint8Array | string): ParsedPayload<T> {
  let text: string;
  let json: unknown;
  try {
    text = typeof payload === 'string' ? payload : utf8.decode(payload);
    json = JSON.parse(text);
  } catch {
    return { success: false, reason: 'payload: not JSON' };
  }
  const unsafe = findUnsafeTextInJson(text, json);
  if (unsafe) return { success: false, reason: describeUnsafeText(unsafe, 'payload') };
  const result = schema.safeParse(json);
  if (result.success) return { success: true, data: result.data };
  const issue = result.error.issues[0]!;
  const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  return { success: false, reason: `${formatFieldPath(path, 'payload')}: ${issue.message}` };
}

const utf8 = new TextDecoder();

/** Messages of spec section 5 for peripheral numbers. */
export const propMinMessage = (min: number) => `Number must be above minimum value of ${min}`;
export const propMaxMessage = (max: number) => `Number must be below maximum value of ${max}`;

type PropRule = { type: string; settable: string; min: number | null; max: number | null };

/**
 * Checks a value the console wants to set on a prop against the prop's type, min and max, and
 * answers the value to send the board (numbers as numbers; hex "0x.." and binary "0b.." text
 * accepted) or the message to show.
 */
export function checkPropValue(prop: PropRule, raw: unknown): { ok: true; value: string | number } | { ok: false; message: string } {
  if (prop.settable !== 'true') return { ok: false, message: 'This prop is read-only.' };
  const type = prop.type as PropType;
  if (type === 'button') return { ok: false, message: 'This prop is read-only.' };
  if (type === 'text') {
    if (typeof raw !== 'string') return { ok: false, message: 'The value must be text.' };
    // max is the board's buffer size, which holds the trailing null too.
    if (prop.max != null && raw.length > prop.max - 1) return { ok: false, message: `Text must be at most ${prop.max - 1} characters` };
    return { ok: true, value: raw };
  }
  if (type === 'led' || type === 'addressable_led') {
    const parts = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : [];
    const count = LED_VALUE_COUNT[type];
    const numbers = parts.map((p) => p.trim()).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
    if (numbers.length !== count || numbers.some((n) => !Number.isInteger(n))) {
      return { ok: false, message: `The value must be ${count} whole numbers separated by commas.` };
    }
    const channels = type === 'addressable_led' ? numbers.slice(1) : numbers;
    if (channels.some((n) => n > 255)) return { ok: false, message: 'Brightness and colour values must be 0 to 255.' };
    if (type === 'addressable_led' && prop.max != null && numbers[0]! > prop.max) return { ok: false, message: propMaxMessage(prop.max) };
    return { ok: true, value: numbers.join(',') };
  }
  const number = toNumber(raw);
  if (number === null) return { ok: false, message: 'The value must be a number.' };
  if (type === 'toggle') {
    if (number !== 0 && number !== 1) return { ok: false, message: 'The value must be 0 or 1.' };
    return { ok: true, value: number };
  }
  if (type === 'trigger') {
    if (number !== 1) return { ok: false, message: 'A trigger is fired with 1.' };
    return { ok: true, value: 1 };
  }
  if ((type === 'uint' || type === 'int') && !Number.isInteger(number)) return { ok: false, message: 'The value must be a whole number.' };
  if (type === 'uint' && number < 0) return { ok: false, message: 'The value must not be negative.' };
  if (prop.min != null && number < prop.min) return { ok: false, message: propMinMessage(prop.min) };
  if (prop.max != null && number > prop.max) return { ok: false, message: propMaxMessage(prop.max) };
  return { ok: true, value: number };
}

function toNumber(raw: unknown): number | null {
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toLowerCase();
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  let value: number;
  if (/^0x[0-9a-f]+$/.test(body)) value = parseInt(body.slice(2), 16);
  else if (/^0b[01]+$/.test(body)) value = parseInt(body.slice(2), 2);
  else if (/^\d+(\.\d+)?$/.test(body)) value = Number(body);
  else return null;
  return negative ? -value : value;
}
