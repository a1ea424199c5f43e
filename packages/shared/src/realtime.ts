import { z } from 'zod';
import { parseJsonMessage } from './json-message.js';
import { Id } from './api/common.js';
import { IsoDateTime, LogLineSchema, OpModeSchema, PropValueSchema, StatusValueSchema } from './values.js';
import { SettingValueSchema } from './api/setting-value.js';

/**
 * The console's realtime socket (/ws): what the console sends, what it receives. Every message is
 * a zod schema; the server builds events with presenters, the console parses what it receives.
 * Events are named `resource.verb` with the resource the hub topic names (`exhibit`, `hardware`),
 * and they name things by `<kind>Id` keys: `exhibitId`, `hardwareId`, `statusId`, `settingId`,
 * `peripheralId`.
 */

/** The largest message the server takes on /ws; a longer frame closes the socket (1009). */
export const SOCKET_MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * The most ids one `subscribe` or `unsubscribe` list may hold. A console that follows more (a
 * site's 10,000 boards) sends several messages; 5,000 ids also keep a message under
 * SOCKET_MAX_MESSAGE_BYTES.
 */
export const SUBSCRIPTION_MAX_IDS = 5000;

/** Messages a console (or SDK) sends on the /ws socket. */
export const ClientMessageSchema = z.discriminatedUnion('type', [
  /** Authenticate with a session or exhibit token when the upgrade carried no cookie. */
  z.object({ type: z.literal('auth'), token: z.string().min(1) }),
  z.object({
    type: z.literal('subscribe'),
    exhibitIds: z.array(z.string()).max(SUBSCRIPTION_MAX_IDS).optional(),
    hardwareIds: z.array(z.string()).max(SUBSCRIPTION_MAX_IDS).optional(),
  }),
  /** Without either list: unsubscribe from everything; else from the ids given. */
  z.object({
    type: z.literal('unsubscribe'),
    exhibitIds: z.array(z.string()).max(SUBSCRIPTION_MAX_IDS).optional(),
    hardwareIds: z.array(z.string()).max(SUBSCRIPTION_MAX_IDS).optional(),
  }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

/** An event of one exhibit: its name (the `type`) and its payload beside `exhibitId`. */
const exhibitEvent = <N extends string, T extends z.ZodRawShape>(name: N, shape: T) =>
  z.object({ type: z.literal(name), exhibitId: Id, ...shape });
/** An event of one hardware unit: its name and its payload beside `hardwareId`. */
const hardwareEvent = <N extends string, T extends z.ZodRawShape>(name: N, shape: T) =>
  z.object({ type: z.literal(name), hardwareId: Id, ...shape });

/** Every event pushed to subscribed consoles. */
const EVENT_SCHEMAS = [
  /** The exhibit's SDK connected or went silent; `lastOnlineChange` is when. */
  exhibitEvent('exhibit.presenceChanged', { online: z.boolean(), lastOnlineChange: IsoDateTime.nullable() }),
  /** The op mode as the console shows it (Off while the exhibit is offline). */
  exhibitEvent('exhibit.opModeChanged', { opMode: OpModeSchema }),
  /** The exhibit's manifest structure changed: read it again. */
  exhibitEvent('exhibit.manifestChanged', {}),
  /** The exhibit reported a status value. */
  exhibitEvent('exhibit.statusChanged', { statusId: z.string(), value: StatusValueSchema }),
  /** A setting value was saved (`applied: false`) or the exhibit applied it (`applied: true`). */
  exhibitEvent('exhibit.settingChanged', {
    settingId: z.string(),
    value: SettingValueSchema,
    applied: z.boolean(),
    /** The saved version this event is about (the manifest's `version`): a console keeps the newer of an event and a read. */
    version: z.number().int(),
  }),
  /** The exhibit's users, their levels or their notification toggles changed: read them again. */
  exhibitEvent('exhibit.usersChanged', {}),
  /** The exhibit's scheduled events changed (created, edited, deleted, run, missed): read them again. */
  exhibitEvent('exhibit.schedulesChanged', {}),
  /** A live log line of the exhibit. */
  exhibitEvent('exhibit.logged', { log: LogLineSchema }),
  /** The exhibit record changed (name, lock, leader, address…): read it again. */
  exhibitEvent('exhibit.updated', {}),
  exhibitEvent('exhibit.deleted', {}),
  /** A file of the exhibit was uploaded. */
  exhibitEvent('exhibit.fileUploaded', { fileName: z.string() }),
  /** A file of the exhibit (or of its leader) was deleted. */
  exhibitEvent('exhibit.fileDeleted', { fileName: z.string() }),
  /** The board connected or went silent. */
  hardwareEvent('hardware.presenceChanged', { online: z.boolean() }),
  /** Debug mode (the console drives the peripherals) was switched. */
  hardwareEvent('hardware.debugChanged', { controlDebug: z.boolean() }),
  /** The board's heartbeat: its health as it reported it, and when it arrived. */
  hardwareEvent('hardware.statusChanged', {
    voltage: z.number().nullable(),
    temp: z.number().nullable(),
    /** Minutes since boot. */
    uptime: z.number().nullable(),
    exhibitState: z.string().nullable(),
    exhibitIP: z.string().nullable(),
    updatedAt: IsoDateTime,
  }),
  /** A prop of one of the board's peripherals changed. */
  hardwareEvent('hardware.propChanged', {
    peripheralId: z.string(),
    periphName: z.string(),
    propName: z.string(),
    propType: z.string(),
    value: PropValueSchema,
  }),
  /** A live log line of the board. */
  hardwareEvent('hardware.logged', { log: LogLineSchema }),
  /** The hardware record changed (announce, firmware outcome, rename, connection): read it again. */
  hardwareEvent('hardware.updated', {}),
  hardwareEvent('hardware.deleted', {}),
] as const;

export const RealtimeEventSchema = z.discriminatedUnion('type', EVENT_SCHEMAS);
/** One event pushed to consoles: `{ type: name, ...payload }`. */
export type RealtimeEvent = z.infer<typeof RealtimeEventSchema>;
export type RealtimeEventName = RealtimeEvent['type'];
/** The event of this name. */
export type RealtimeEventOf<N extends RealtimeEventName> = Extract<RealtimeEvent, { type: N }>;

type EventSchemaMap = { [S in (typeof EVENT_SCHEMAS)[number] as z.infer<S>['type']]: S };
/** The event map: name → schema (each schema checks the `type` too). */
export const REALTIME_EVENTS = Object.fromEntries(EVENT_SCHEMAS.map((schema) => [schema.shape.type.value, schema])) as EventSchemaMap;

/** Close codes of the console's /ws socket. */
export const CONSOLE_CLOSE = {
  /** The session ended (logout, password change, signed out by an admin, expired): sign in again. */
  sessionEnded: 4401,
  /** The console fell too far behind the events (it stopped reading): reconnect and read everything again. */
  tooSlow: 4429,
} as const;

/** Messages the server sends on the /ws socket: the protocol's answers, and the events. */
export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('handshake'), authenticated: z.boolean(), userId: Id.optional() }),
  /**
   * The user's grants changed (a grant removed or its role changed): the ids listed are no longer
   * delivered, and what the console shows about rights should be read again.
   */
  z.object({ type: z.literal('access.changed'), exhibitIds: z.array(Id), hardwareIds: z.array(Id) }),
  z.object({ type: z.literal('subscribed'), exhibitIds: z.array(Id), hardwareIds: z.array(Id), refused: z.array(z.string()) }),
  z.object({ type: z.literal('unsubscribed'), exhibitIds: z.array(z.string()), hardwareIds: z.array(z.string()) }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('pong') }),
  /**
   * Whether the server's event fan-out is whole: `false` while it has lost its link to the other
   * nodes (Redis), when events from them may be missing; `true` once it is back, when the console
   * reads what it shows again. Sent when it changes, and at connection while it is `false`.
   */
  z.object({ type: z.literal('realtime.status'), live: z.boolean() }),
  ...EVENT_SCHEMAS,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** Reads one message of the server (JSON text): the message, or null when it is not one. */
export function parseServerMessage(raw: string): ServerMessage | null {
  return parseJsonMessage(ServerMessageSchema, raw);
}
