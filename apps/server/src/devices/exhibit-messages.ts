import type { z } from 'zod';
import {
  compileSchema,
  describeUnsafeText,
  findUnsafeTextInJson,
  parseManifest,
  SdkMessageSchema,
  type GatewayMessage,
  type UnsafeText,
} from '@plinth/shared';
import { AppError } from '../lib/app-error.js';
import type { Metrics } from '../lib/metrics.js';
import { pushExhibitFiles } from '../modules/content/files.service.js';
import { acknowledge, cacheStatuses, recordEvent, recordLogs, recordOpMode, recordStatus } from '../modules/exhibit-runtime/exhibit-ingest.service.js';
import { pushSync } from '../modules/exhibit-runtime/exhibit-runtime.service.js';
import { ingestManifest } from '../modules/exhibit-runtime/manifest-ingest.service.js';
import { authenticateConnection } from './exhibit-authentication.js';
import type { ExhibitConnection, ExhibitSession } from './exhibit-connection.js';
import type { ExhibitConnections } from './exhibit-connections.js';

type SdkMessage = z.output<typeof SdkMessageSchema>;
/** The messages an exhibit may send once authenticated. */
type SessionMessage = Exclude<SdkMessage, { type: 'auth' | 'ping' }>;
type SessionHandlers = { [T in SessionMessage['type']]: (session: ExhibitSession, message: Extract<SessionMessage, { type: T }>) => Promise<void> };

/** What an authenticated exhibit's messages do (docs/protocols/exhibit-sdk.md, exhibit to server). */
const sessionHandlers: SessionHandlers = {
  manifest: receiveManifest,
  status: async (session, message) => {
    const problem = await recordStatus(session.deps, session, message);
    if (problem) session.connection.write({ type: 'error', message: problem });
  },
  opMode: (session, message) => recordOpMode(session.deps, session.exhibitId, message.value),
  ack: (session, message) => acknowledge(session.deps, session.exhibitId, message),
  log: (session, message) => recordLogs(session.deps, session.exhibitId, message.entries),
  event: (session, message) => recordEvent(session.deps, session.exhibitId, message),
};

/**
 * Handles one text message of an SDK socket: checked (JSON, the protocol's schema, text
 * PostgreSQL can store), then `ping` and `auth` at any time, anything else once authenticated.
 * Not async itself, so a status value costs no more than its handler.
 */
export function handleExhibitMessage(connections: ExhibitConnections, connection: ExhibitConnection, raw: string): Promise<void> | undefined {
  const { metrics } = connections.deps;
  const message = readMessage(connection, raw, metrics);
  if (!message) return undefined;
  metrics.exhibitMessages.inc(message.type);
  if (message.type === 'ping') {
    connection.write({ type: 'pong' });
    return undefined;
  }
  if (message.type === 'auth') {
    return connection.exhibitId ? undefined : authenticateConnection(connections, connection, message);
  }
  const session = connection.session;
  // Log lines and report events the exhibit sent before this connection was dropped or replaced
  // are still its own, and the SDK will not send them again: they are recorded; nothing else is.
  const appendOnly = message.type === 'log' || message.type === 'event';
  if (!session || (!appendOnly && !connections.isCurrent(connection))) {
    connection.write({ type: 'error', message: 'Authenticate first.' });
    return undefined;
  }
  // The handler is the one of this message's type; TypeScript cannot relate the two through the lookup.
  const handle = sessionHandlers[message.type] as (session: ExhibitSession, message: SessionMessage) => Promise<void>;
  return handle(session, message);
}

/** The SDK's messages, checked by the validator compiled from their contract (statuses are the hot ones). */
const sdkMessages = compileSchema(SdkMessageSchema);

/** The message, or null when it was refused (the connection was told why, the metrics counted it). */
function readMessage(connection: ExhibitConnection, raw: string, metrics: Pick<Metrics, 'exhibitMessagesInvalid'>): SdkMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    metrics.exhibitMessagesInvalid.inc('json');
    connection.write({ type: 'error', message: 'Messages must be JSON.' });
    return null;
  }
  const parsed = sdkMessages.safeParse(json);
  if (!parsed.success) {
    metrics.exhibitMessagesInvalid.inc('schema');
    const issue = parsed.error.issues[0];
    connection.write({ type: 'error', message: `Invalid message: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() });
    return null;
  }
  const unsafe = findUnsafeTextInJson(raw, json);
  if (unsafe) {
    metrics.exhibitMessagesInvalid.inc('text');
    connection.write(unsafeTextAnswer(parsed.data, unsafe));
    return null;
  }
  return parsed.data;
}

/**
 * A manifest is validated, stored (406 when the exhibit is locked and the structure changed) and
 * answered; then the exhibit gets every current value and its files, except after a 400.
 */
async function receiveManifest(session: ExhibitSession, message: Extract<SdkMessage, { type: 'manifest' }>): Promise<void> {
  const { deps, connection, exhibitId } = session;
  const manifest = parseManifest(message.manifest);
  if (!manifest.success) {
    connection.write({ type: 'manifest.error', requestId: message.requestId, status: 400, message: manifest.message });
    return;
  }
  session.statuses.clear();
  try {
    const changed = await ingestManifest(deps, exhibitId, manifest.manifest);
    if (changed) deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.manifestChanged', exhibitId });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    connection.write({ type: 'manifest.error', requestId: message.requestId, status: error.status, message: error.message });
    // A locked exhibit keeps its stored structure, and values and files still flow to it.
    if (error.code === 'NotAcceptable') await syncExhibit(session);
    return;
  }
  connection.write({ type: 'manifest.ok', requestId: message.requestId });
  await syncExhibit(session);
}

/** Every current value (`exhibit.synced`), then the files it should hold (`files.changed`). */
async function syncExhibit(session: ExhibitSession): Promise<void> {
  const rows = await pushSync(session.deps, session.exhibitId);
  // The statuses as stored now: no status value that follows waits for a read of its type.
  cacheStatuses(session.statuses, rows.statuses);
  pushExhibitFiles(session.deps, session.exhibitId);
}

/**
 * The answer to an SDK message holding text PostgreSQL cannot store: a manifest is refused as a
 * bad manifest (the SDK's ready() rejects with it), anything else with an error message.
 */
function unsafeTextAnswer(message: SdkMessage, unsafe: UnsafeText): GatewayMessage {
  if (message.type === 'manifest' && unsafe.path[0] === 'manifest') {
    const inManifest = { ...unsafe, path: unsafe.path.slice(1) };
    return { type: 'manifest.error', requestId: message.requestId, status: 400, message: `Invalid manifest: ${describeUnsafeText(inManifest, 'manifest')}` };
  }
  return { type: 'error', message: `Invalid message: ${describeUnsafeText(unsafe, 'message')}` };
}
