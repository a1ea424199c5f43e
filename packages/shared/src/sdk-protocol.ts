import { z } from 'zod';
import { parseJsonMessage } from './json-message.js';
import { Int32 } from './numbers.js';
import { SettingValueSchema } from './api/setting-value.js';
import { LOG_LEVELS, OpModeSchema, StatusValueSchema } from './values.js';

/**
 * The exhibit SDK protocol (docs/protocols/exhibit-sdk.md). The SDK authenticates over HTTP,
 * then holds the /ws socket opened with `?client=exhibit`. This file depends on zod only, so
 * the SDK can compile it in.
 */

/**
 * The version of this protocol, announced in `auth.ok`. It changes only when a change breaks
 * SDKs (the Python SDK's major version follows it, and refuses a server of a newer one).
 */
export const SDK_PROTOCOL_VERSION = 1;
/** Query parameter that marks an exhibit connection on /ws (`/ws?client=exhibit`). */
export const SDK_SOCKET_QUERY = 'client=exhibit';
/** How often each side pings the other (WebSocket ping frames). */
export const EXHIBIT_HEARTBEAT_MS = 10_000;
/** An exhibit not heard from for this long is marked offline. */
export const EXHIBIT_OFFLINE_AFTER_MS = 25_000;
/** How long a credential from POST /auth/exhibit/authenticate may open a socket. */
export const EXHIBIT_CREDENTIAL_TTL_MS = 5 * 60 * 1000;
/** The server waits this long for the auth message before closing. */
export const EXHIBIT_AUTH_TIMEOUT_MS = 10_000;

/** Close codes the server uses on exhibit sockets. */
export const EXHIBIT_CLOSE = {
  /** Bad or expired credential, or the token was revoked: do not retry with it. */
  unauthorized: 4001,
  /** The exhibit was deleted. */
  deleted: 4004,
  /** Another connection of the same exhibit took over. */
  replaced: 4009,
  /** Heartbeat missed. */
  timeout: 4008,
  /** The server node is stopping (1012 Service Restart): reconnect, to another node if there is one. */
  restarting: 1012,
} as const;


/** POST /auth/exhibit/authenticate */
export const ExhibitAuthenticateBody = z.object({
  exhibitId: z.uuid({ message: 'exhibitId must be a valid id' }),
  token: z.string({ message: 'token is required' }).min(1).max(200),
});
export const ExhibitCredentialSchema = z.object({
  exhibitId: z.string(),
  /** Opens the socket (first message `auth`); short-lived. */
  credential: z.string(),
  expiresAt: z.string(),
});
export type ExhibitCredential = z.infer<typeof ExhibitCredentialSchema>;

const Value = z.union([z.boolean(), z.number(), z.string(), z.null()]);

/** Messages the SDK sends. */
export const SdkMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), exhibitId: z.string(), token: z.string().min(1).max(500) }),
  /** Sends the manifest (on ready and on setManifest); answered by manifest.ok or manifest.error. */
  z.object({ type: z.literal('manifest'), requestId: z.string().max(100), manifest: z.unknown() }),
  z.object({ type: z.literal('status'), id: z.string().min(1).max(100), value: z.union([z.string().max(10_000), z.number(), z.null()]) }),
  /** The exhibit changed its own op mode. */
  z.object({ type: z.literal('opMode'), value: z.enum(['On', 'Off']) }),
  /** Acknowledges applied setting versions (settings by manifest id, list items by list id and name). */
  z.object({
    type: z.literal('ack'),
    settings: z.array(z.object({ id: z.string(), version: Int32 })).max(5000).default([]),
    listItems: z.array(z.object({ listId: z.string(), listName: z.string(), version: Int32 })).max(5000).default([]),
  }),
  z.object({
    type: z.literal('log'),
    entries: z
      .array(z.object({ level: z.enum(LOG_LEVELS), message: z.string().max(10_000), timestamp: z.string() }))
      .min(1)
      .max(500),
  }),
  /** A report event (name, optional data), charted in the reports tab. */
  z.object({
    type: z.literal('event'),
    name: z.string().min(1).max(200),
    data: Value.optional(),
    timestamp: z.string(),
  }),
  z.object({ type: z.literal('ping') }),
]);
export type SdkMessage = z.input<typeof SdkMessageSchema>;

/** One file the exhibit should hold in its content folder (`contentDir`). */
export const SdkFileSchema = z.object({
  name: z.string(),
  size: z.number(),
  /** SHA-256 (hex); null for organizational ('[ORG]') files, which are compared by `updatedAt` and size. */
  sha256: z.string().nullable(),
  updatedAt: z.string(),
  organizational: z.boolean(),
});
export type SdkFile = z.infer<typeof SdkFileSchema>;

/** A StrapiContent setting's chosen entry as the exhibit receives it: its id and its fields. */
export const SdkContentEntrySchema = z.object({ id: z.union([z.string(), z.number()]) }).catchall(z.unknown());
export type SdkContentEntry = z.infer<typeof SdkContentEntrySchema>;

/** One list item as the exhibit receives it. */
export const SdkListItemSchema = z.object({
  listName: z.string(),
  order: z.number(),
  /** Raised on every change, so an acknowledgement names what was applied. */
  version: z.number(),
  values: z.record(z.string(), SettingValueSchema),
});
export type SdkListItem = z.infer<typeof SdkListItemSchema>;

/**
 * Messages the server sends to an exhibit: the answers of the protocol (`auth.ok`, `manifest.ok`,
 * `manifest.error`, `error`, `pong`) and the events, named `resource.verb` and keyed by
 * `<kind>Id` (`controlId`, `settingId`, `listId`, `statusId`).
 */
export const GatewayMessageSchema = z.discriminatedUnion('type', [
  /** `protocolVersion`: SDK_PROTOCOL_VERSION of the server (absent from servers older than it: version 1). */
  z.object({ type: z.literal('auth.ok'), exhibitId: z.string(), name: z.string(), protocolVersion: z.number().int().optional() }),
  z.object({ type: z.literal('manifest.ok'), requestId: z.string() }),
  z.object({ type: z.literal('manifest.error'), requestId: z.string(), status: z.number(), message: z.string() }),
  /**
   * Every current value: sent after each manifest ingest (so on every (re)connect). Settings by
   * manifest id with their versions; lists with their items; the statuses as stored; the op mode.
   */
  z.object({
    type: z.literal('exhibit.synced'),
    opMode: OpModeSchema,
    settings: z.array(
      z.object({
        settingId: z.string(),
        value: SettingValueSchema,
        version: z.number(),
        /** StrapiContent settings: the chosen entry (null when none is chosen). */
        content: SdkContentEntrySchema.nullable().optional(),
      }),
    ),
    settingLists: z.array(z.object({ listId: z.string(), items: z.array(SdkListItemSchema) })),
    statuses: z.array(z.object({ statusId: z.string(), value: StatusValueSchema })),
  }),
  /** A control was fired in the console; `itemId` names the button of a group control. */
  z.object({ type: z.literal('control.fired'), controlId: z.string(), itemId: z.string().optional() }),
  /** A setting's new value (desired state, acknowledged by its version). */
  z.object({
    type: z.literal('setting.changed'),
    settingId: z.string(),
    value: SettingValueSchema,
    version: z.number(),
    /** StrapiContent settings: the chosen entry (null when none is chosen). */
    content: SdkContentEntrySchema.nullable().optional(),
  }),
  /**
   * The files the exhibit should hold (its leader's, for a follower; organizational ones too):
   * sent after `exhibit.synced` on every (re)connect and after every change. The SDK downloads
   * with GET /api/v1/content/files/?exhibitId&fileName and Basic auth (exhibit id, exhibit token).
   */
  z.object({
    type: z.literal('files.changed'),
    files: z.array(SdkFileSchema),
    /**
     * True when the organization's content manager could not be read: `files` then holds no
     * organizational files, and the exhibit keeps the organizational files it has (an outage of
     * the content manager must not delete them from the installation).
     */
    organizationalUnavailable: z.boolean().optional(),
  }),
  /** The whole list after any change to it (value, create, copy, order, delete). */
  z.object({ type: z.literal('settingList.changed'), listId: z.string(), items: z.array(SdkListItemSchema) }),
  z.object({ type: z.literal('opMode.changed'), opMode: OpModeSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('pong') }),
]);
export type GatewayMessage = z.infer<typeof GatewayMessageSchema>;
export type GatewayMessageOf<T extends GatewayMessage['type']> = Extract<GatewayMessage, { type: T }>;

/** Reads one message of the server (JSON text): the message, or null when it is not one. */
export function parseGatewayMessage(raw: string): GatewayMessage | null {
  return parseJsonMessage(GatewayMessageSchema, raw);
}
