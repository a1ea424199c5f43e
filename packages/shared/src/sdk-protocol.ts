import { z } from 'zod';
import { Int32 } from './numbers.js';

/**
 * The exhibit SDK protocol (docs/protocols/exhibit-sdk.md). The SDK authenticates over HTTP,
 * then holds the /ws socket opened with `?client=exhibit`. This file depends on zod only, so
 * the SDK can compile it in.
 */

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
} as const;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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

/** One list item as the exhibit receives it. */
export type SdkListItem = { listName: string; order: number; version: number; values: Record<string, boolean | number | string | null> };

/** Messages the server sends to an exhibit. */
export type GatewayMessage =
  | { type: 'auth.ok'; exhibitId: string; name: string }
  | { type: 'manifest.ok'; requestId: string }
  | { type: 'manifest.error'; requestId: string; status: number; message: string }
  /**
   * Every current value: sent after each manifest ingest (so on every (re)connect). Settings by
   * manifest id with their versions; lists with their items; the op mode.
   */
  | {
      type: 'sync';
      opMode: 'On' | 'Off';
      settings: { id: string; value: boolean | number | string | null; version: number }[];
      settingLists: { id: string; items: SdkListItem[] }[];
      statuses: { id: string; value: string | number | null }[];
    }
  | { type: 'control'; id: string; itemId?: string }
  | { type: 'setting'; id: string; value: boolean | number | string | null; version: number }
  /** The whole list after any change to it (value, create, copy, order, delete). */
  | { type: 'settingList'; id: string; items: SdkListItem[] }
  | { type: 'opMode'; value: 'On' | 'Off' }
  | { type: 'error'; message: string }
  | { type: 'pong' };
