import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { ClientMessageSchema, topicFor, type ServerMessage } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import type { AuthUser } from '../lib/request-user.js';
import { loadGrants } from '../modules/access/grants.js';
import { findExhibitRefs, findHardwareRefs } from '../modules/access/refs.repository.js';
import { resolveSession } from '../modules/auth/sessions.service.js';

/** How often the server pings console sockets; a socket that missed a pong is closed. */
export const CONSOLE_PING_MS = 30_000;

/**
 * The realtime socket for the console. It authenticates from the session cookie on upgrade, or
 * from an `auth` message; then the console subscribes to the exhibits and hardware it may see
 * and receives their events from the hub.
 */
export function socketRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
      // Exhibit SDK connections (`/ws?client=exhibit`) belong to the exhibit gateway.
      if (deps.exhibitGateway.isExhibitSocket(request)) return deps.exhibitGateway.accept(socket, request);
      const connection = new ConsoleConnection(deps, socket, request.user);
      connection.start();
    });
  };
}

class ConsoleConnection {
  private readonly subscriptions = new Map<string, () => void>();
  private alive = true;
  private pingTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly socket: WebSocket,
    private user: AuthUser | null,
  ) {}

  start(): void {
    this.send({ type: 'handshake', authenticated: Boolean(this.user), userId: this.user?.id });
    // One message at a time, in order: an auth message must finish before the subscribe behind it.
    this.socket.on('message', (raw) => {
      this.queue = this.queue
        .then(() => this.handle(raw.toString()))
        .catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'socket message failed');
          this.send({ type: 'error', message: 'The message could not be handled.' });
        });
    });
    this.socket.on('pong', () => {
      this.alive = true;
    });
    this.socket.on('close', () => this.stop());
    this.socket.on('error', () => this.stop());
    this.pingTimer = setInterval(() => {
      if (!this.alive) {
        this.socket.terminate();
        return;
      }
      this.alive = false;
      this.socket.ping();
    }, CONSOLE_PING_MS);
    this.pingTimer.unref();
  }

  private stop(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  private send(message: ServerMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private async handle(raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.send({ type: 'error', message: 'Messages must be JSON.' });
      return;
    }
    const parsed = ClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.send({ type: 'error', message: `Unknown or invalid message: ${parsed.error.issues[0]?.message ?? ''}` });
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ping':
        this.send({ type: 'pong' });
        return;
      case 'auth': {
        this.user = await resolveSession(this.deps, message.token);
        this.send({ type: 'handshake', authenticated: Boolean(this.user), userId: this.user?.id });
        return;
      }
      case 'subscribe':
        await this.subscribe(message.exhibitIds ?? [], message.hardwareIds ?? []);
        return;
      case 'unsubscribe':
        this.unsubscribe(message.exhibitIds, message.hardwareIds);
        return;
    }
  }

  private async subscribe(exhibitIds: string[], hardwareIds: string[]): Promise<void> {
    if (!this.user) {
      this.send({ type: 'error', message: 'Authenticate before subscribing.' });
      return;
    }
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const grants = await loadGrants(this.deps.db, this.user);
    const [exhibitRefs, hardwareRefs] = await Promise.all([
      findExhibitRefs(this.deps.db, [...new Set(exhibitIds)].filter((id) => uuid.test(id))),
      findHardwareRefs(this.deps.db, [...new Set(hardwareIds)].filter((id) => uuid.test(id))),
    ]);
    const allowedExhibits = exhibitRefs.filter((ref) => grants.exhibitRole(ref)).map((ref) => ref.id);
    const allowedHardware = hardwareRefs.filter((ref) => grants.hardwareRole(ref)).map((ref) => ref.id);
    for (const id of allowedExhibits) this.listen(topicFor('exhibit', id));
    for (const id of allowedHardware) this.listen(topicFor('hardware', id));
    const allowed = new Set([...allowedExhibits, ...allowedHardware]);
    const refused = [...exhibitIds, ...hardwareIds].filter((id) => !allowed.has(id));
    this.send({ type: 'subscribed', exhibitIds: allowedExhibits, hardwareIds: allowedHardware, refused });
  }

  private listen(topic: string): void {
    // A subscribe still loading grants when the socket closed must not leave listeners behind.
    if (this.closed || this.subscriptions.has(topic)) return;
    this.subscriptions.set(
      topic,
      this.deps.hub.subscribe(topic, (event) => this.send(event)),
    );
  }

  private unsubscribe(exhibitIds?: string[], hardwareIds?: string[]): void {
    const topics =
      !exhibitIds && !hardwareIds
        ? [...this.subscriptions.keys()]
        : [
            ...(exhibitIds ?? []).map((id) => topicFor('exhibit', id)),
            ...(hardwareIds ?? []).map((id) => topicFor('hardware', id)),
          ];
    for (const topic of topics) {
      this.subscriptions.get(topic)?.();
      this.subscriptions.delete(topic);
    }
    this.send({ type: 'unsubscribed', exhibitIds: exhibitIds ?? [], hardwareIds: hardwareIds ?? [] });
  }
}
