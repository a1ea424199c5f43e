import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { ClientMessageSchema, CONSOLE_CLOSE, describeUnsafeText, findUnsafeTextInJson, isId, type ServerMessage } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { hashSecret } from '../lib/crypto.js';
import { describeFailure } from '../lib/describe-failure.js';
import { loadGrants } from '../modules/access/grants.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { findExhibitRefs, findHardwareRefs } from '../modules/access/refs.repository.js';
import { findLiveSessionHashes, resolveSessionHash } from '../modules/auth/sessions.service.js';
import { listenToAccessChanges } from './access-notices.js';
import type { HubListener, HubSubscription } from './hub.js';
import { ConsoleOutbox } from './console-outbox.js';
import { HardwareFanout } from './hardware-fanout.js';
import type { HardwareEvent } from './hub-messages.js';
import { SocketItemLevels } from './socket-item-levels.js';

/** How often the server pings console sockets; a socket that missed a pong is closed. */
export const CONSOLE_PING_MS = 30_000;

/**
 * How often each node checks that the sessions of its open sockets still exist. Ends of sessions
 * made through Plinth are announced and act at once; this catches the rest (expiry, a session
 * deleted by hand or by a command line without REDIS_URL).
 */
export const SESSION_RECHECK_MS = 5_000;

/**
 * The realtime socket for the console. It authenticates from the session cookie on upgrade, or
 * from an `auth` message; then the console subscribes to the exhibits and hardware it may see
 * and receives their events from the hub. When the user's access changes anywhere (an access
 * notice through the hub), the socket closes if its session ended, else drops exactly the
 * subscriptions no longer allowed.
 */
export function socketRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    const open = new Set<ConsoleConnection>();
    const hardwareFanout = new HardwareFanout(deps.hub);
    deps.metrics.setSource('consoleSockets', () => open.size);
    deps.metrics.setSource('consoleSubscriptions', () => {
      let count = 0;
      for (const connection of open) count += connection.subscriptionCount;
      return count;
    });
    const recheck = setInterval(() => {
      void recheckSessions(deps, open).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not check socket sessions'));
    }, SESSION_RECHECK_MS);
    recheck.unref();
    // The fan-out lost or found its link to the other nodes: every console here is told.
    const stopLive = deps.hub.onLiveChange((live) => {
      for (const connection of open) connection.sendStatus(live);
    });
    app.addHook('onClose', async () => {
      clearInterval(recheck);
      stopLive();
    });

    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
      releaseUpgradeRequest(deps, socket, request);
      // Exhibit SDK connections (`/ws?client=exhibit`) belong to the exhibit gateway.
      if (deps.exhibitGateway.isExhibitSocket(request)) return deps.exhibitGateway.accept(socket, request);
      const connection = new ConsoleConnection(deps, socket, {
        user: usableUser(request.sessionUser),
        sessionHash: request.sessionTokenHash,
        hardwareFanout,
        onStop: () => open.delete(connection),
      });
      open.add(connection);
      connection.start();
    });
  };
}

/**
 * @fastify/websocket routes an upgrade through Fastify with a response that never finishes: the
 * TCP socket keeps that response and its listeners, and the plugin's 'error' listener on the
 * WebSocket keeps the request and reply, so every open socket held its upgrade request, headers,
 * reply and child logger for its whole life (about 4 KB of heap a socket; docs/performance.md).
 * The route reads what it needs from the request while it runs; afterwards nothing holds it: the
 * response lets go of the TCP socket and the plugin's listener gives way to one that does as it
 * did (log, then terminate) without the request.
 */
function releaseUpgradeRequest(deps: AppDeps, socket: WebSocket, request: FastifyRequest): void {
  const tcp = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
  tcp._httpMessage?.detachSocket(tcp);
  socket.removeAllListeners('error');
  socket.on('error', (error) => {
    deps.logger.warn({ failure: describeFailure(error) }, 'socket error');
    socket.terminate();
  });
}

/** A session's user, or null for one an organization makes enrol in two-factor sign-in first (the socket is theirs once they did). */
function usableUser(user: AuthUser | null): AuthUser | null {
  return user?.mustEnrolTwoFactor ? null : user;
}

/** Closes the sockets of this node whose session no longer exists. */
async function recheckSessions(deps: AppDeps, open: Set<ConsoleConnection>): Promise<void> {
  const signedIn = [...open].filter((connection) => connection.sessionHash);
  if (!signedIn.length) return;
  const live = await findLiveSessionHashes(deps, [...new Set(signedIn.map((connection) => connection.sessionHash!))]);
  for (const connection of signedIn) {
    if (!live.has(connection.sessionHash!)) connection.endSession();
  }
}

/** Who a console socket starts as (from the upgrade's session cookie), and what to do when it stops. */
type ConsoleConnectionStart = {
  user: AuthUser | null;
  /** SHA-256 of the session token the socket authenticated with. */
  sessionHash: string | null;
  /** This node's hand-over of hardware events to its consoles. */
  hardwareFanout: HardwareFanout;
  onStop: () => void;
};

/** The last event counted in the fan-out delay (the same object reaches every console of this node). */
let lastTimedEvent: ServerMessage | null = null;

/** A message on its way to the socket, and when the hub event behind it was published (ms since the epoch). */
type HubDelivery = { event: ServerMessage; publishedAt?: number };

class ConsoleConnection {
  /** The exhibits this socket listens to, each with what stops listening. */
  private readonly exhibitSubscriptions = new Map<string, () => void>();
  /** The hardware units this socket listens to (through the fan-out), by the fan-out's own id strings. */
  private readonly hardwareSubscriptions = new Set<string>();
  /** Which exhibit events are about items hidden to the user (granular levels). */
  private readonly itemLevels: SocketItemLevels;
  /** The last event waiting to be sent (null: none waits, the next one goes at once). */
  private pending: Promise<void> | null = null;
  private accessListener: HubSubscription | null = null;
  private alive = true;
  private pingTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private user: AuthUser | null;
  /** SHA-256 of the session token the socket authenticated with. */
  sessionHash: string | null;
  private readonly onStop: () => void;
  private readonly hardwareFanout: HardwareFanout;
  /** What the socket is sent, held and merged while the console reads slowly. */
  private readonly outbox: ConsoleOutbox;

  constructor(
    private readonly deps: AppDeps,
    private readonly socket: WebSocket,
    start: ConsoleConnectionStart,
  ) {
    this.user = start.user;
    this.sessionHash = start.sessionHash;
    this.itemLevels = new SocketItemLevels(deps, () => this.user);
    this.onStop = start.onStop;
    this.hardwareFanout = start.hardwareFanout;
    this.outbox = new ConsoleOutbox(socket, () => {
      this.deps.logger.warn({ userId: this.user?.id }, 'closed a console socket that fell too far behind its events');
      this.stop();
      this.socket.close(CONSOLE_CLOSE.tooSlow, 'too far behind');
    });
  }

  start(): void {
    this.send({ type: 'handshake', authenticated: Boolean(this.user), userId: this.user?.id });
    if (!this.deps.hub.isLive()) this.sendStatus(false);
    if (this.user) this.enqueue(() => this.listenToAccess());
    // One message at a time, in order: an auth message must finish before the subscribe behind it.
    this.socket.on('message', (raw) => this.enqueue(() => this.handle(raw.toString())));
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

  /** Tells the console whether events from every node arrive (`realtime.status`). */
  sendStatus(live: boolean): void {
    if (!this.closed) this.send({ type: 'realtime.status', live });
  }

  /** How many exhibits and hardware units this socket listens to. */
  get subscriptionCount(): number {
    return this.exhibitSubscriptions.size + this.hardwareSubscriptions.size;
  }

  /** The session is gone: the console signs in again. */
  endSession(): void {
    if (this.closed) return;
    this.stop();
    this.socket.close(CONSOLE_CLOSE.sessionEnded, 'session ended');
  }

  /** Runs work after everything queued before it (messages and access checks never interleave). */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      this.deps.logger.warn({ failure: describeFailure(error) }, 'socket message failed');
      this.send({ type: 'error', message: 'The message could not be handled.' });
    });
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pingTimer);
    this.accessListener?.();
    this.accessListener = null;
    this.dropAll();
    this.outbox.stop();
    this.onStop();
  }

  /**
   * Writes a message; an event from the hub (`publishedAt` known) counts in the fan-out delay, once
   * an event: the hub hands it to every console in one go, so its first write stands for them all
   * (a wall of a hundred consoles would otherwise observe each event a hundred times).
   */
  private send(message: ServerMessage, publishedAt?: number): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.outbox.write(message);
    if (publishedAt !== undefined && message !== lastTimedEvent) {
      lastTimedEvent = message;
      this.deps.metrics.fanoutDelay.observe(Math.max(0, Date.now() - publishedAt) / 1000);
    }
  }

  /**
   * Listens for access changes of the signed-in user on every node. Messages queue behind this,
   * so no subscription is granted before the socket can hear that the grant behind it went away.
   */
  private async listenToAccess(): Promise<void> {
    this.accessListener?.();
    this.accessListener = null;
    if (!this.user || this.closed) return;
    const listener = listenToAccessChanges(this.deps.hub, this.user.id, () => this.enqueue(() => this.checkAccess()));
    this.accessListener = listener;
    await listener.ready;
  }

  /** After an access change: close when the session ended, else drop what is no longer allowed. */
  private async checkAccess(): Promise<void> {
    if (this.closed || !this.user) return;
    const user = this.sessionHash ? usableUser(await resolveSessionHash(this.deps, this.sessionHash)) : null;
    if (!user || user.id !== this.user.id) {
      this.endSession();
      return;
    }
    this.user = user;
    this.itemLevels.forget();
    const exhibitIds = [...this.exhibitSubscriptions.keys()];
    const hardwareIds = [...this.hardwareSubscriptions];
    const allowed = await this.allowedIds(exhibitIds, hardwareIds);
    const kept = new Set([...allowed.exhibits.map((e) => e.exhibitId), ...allowed.hardwareIds]);
    const droppedExhibits = exhibitIds.filter((id) => !kept.has(id));
    const droppedHardware = hardwareIds.filter((id) => !kept.has(id));
    this.dropExhibits(droppedExhibits);
    this.dropHardware(droppedHardware);
    this.send({ type: 'access.changed', exhibitIds: droppedExhibits, hardwareIds: droppedHardware });
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
    const unsafe = findUnsafeTextInJson(raw, json);
    if (unsafe) {
      this.send({ type: 'error', message: `Invalid message: ${describeUnsafeText(unsafe, 'message')}` });
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ping':
        // After every event that arrived before it (some may wait for the user's levels).
        this.deliver({ type: 'pong' }, undefined, () => true);
        return;
      case 'auth':
        await this.authenticate(message.token);
        return;
      case 'subscribe':
        await this.subscribe(message.exhibitIds ?? [], message.hardwareIds ?? []);
        return;
      case 'unsubscribe':
        this.unsubscribe(message.exhibitIds, message.hardwareIds);
        return;
    }
  }

  /** An `auth` message (SDK-style clients without the cookie); another user's token starts afresh. */
  private async authenticate(token: string): Promise<void> {
    const sessionHash = hashSecret(token);
    const user = usableUser(await resolveSessionHash(this.deps, sessionHash));
    if (user?.id !== this.user?.id) this.dropAll();
    this.user = user;
    this.sessionHash = user ? sessionHash : null;
    await this.listenToAccess();
    this.send({ type: 'handshake', authenticated: Boolean(this.user), userId: this.user?.id });
  }

  /** The ids among these that the user may see now (unknown and malformed ids are left out). */
  private async allowedIds(exhibitIds: string[], hardwareIds: string[]) {
    const grants = await loadGrants(this.deps.db, this.user!);
    const [exhibitRefs, hardwareRefs] = await Promise.all([
      // Only well-formed ids reach the database.
      findExhibitRefs(this.deps.db, [...new Set(exhibitIds)].filter(isId)),
      findHardwareRefs(this.deps.db, [...new Set(hardwareIds)].filter(isId)),
    ]);
    return {
      exhibits: exhibitRefs.map((ref) => ({ exhibitId: ref.id, role: grants.exhibitRole(ref) })).filter((e) => e.role),
      hardwareIds: hardwareRefs.filter((ref) => grants.hardwareRole(ref)).map((ref) => ref.id),
    };
  }

  private async subscribe(exhibitIds: string[], hardwareIds: string[]): Promise<void> {
    if (!this.user) {
      this.send({ type: 'error', message: 'Authenticate before subscribing.' });
      return;
    }
    const allowed = await this.allowedIds(exhibitIds, hardwareIds);
    const allowedExhibitIds = allowed.exhibits.map((e) => e.exhibitId);
    // A subscribe still loading grants when the socket closed must not leave listeners behind.
    if (this.closed) return;
    for (const id of allowedExhibitIds) this.listenToExhibit(id);
    // Their levels in one query now, rather than one read each on their first events.
    this.itemLevels.preload(allowed.exhibits);
    for (const id of allowed.hardwareIds) {
      if (!this.hardwareSubscriptions.has(id)) this.hardwareSubscriptions.add(this.hardwareFanout.add(id, this));
    }
    const granted = new Set([...allowedExhibitIds, ...allowed.hardwareIds]);
    const refused = [...exhibitIds, ...hardwareIds].filter((id) => !granted.has(id));
    this.send({ type: 'subscribed', exhibitIds: allowedExhibitIds, hardwareIds: allowed.hardwareIds, refused });
  }

  /** Forwards the events of one exhibit to this console. */
  private listenToExhibit(id: string): void {
    if (this.exhibitSubscriptions.has(id)) return;
    // Whether the subscription still stands, for events that waited (levels loading) while it was
    // dropped: a flag, not a lookup of the topic among thousands of subscriptions.
    let active = true;
    const stopListening = this.deps.hub.subscribe('exhibit', id, this.exhibitListener(id, () => active));
    this.exhibitSubscriptions.set(id, () => {
      active = false;
      stopListening();
    });
  }

  /**
   * An event of a hardware unit this console subscribed to (HardwareFanout): sent at once, or
   * behind events that wait (levels loading), then only if the subscription still stands.
   */
  hardwareEvent(event: HardwareEvent, publishedAt: number, hardwareId: string): void {
    if (!this.pending) this.send(event, publishedAt);
    else this.queueDelivery(this.pending, { event, publishedAt, mayReceive: () => this.hardwareSubscriptions.has(hardwareId) });
  }

  /**
   * Listens to an exhibit's events: each is sent unless it is about an item hidden to the user (a
   * status or a setting). A change of the exhibit's users or levels drops the cached levels first.
   */
  private exhibitListener(exhibitId: string, subscribed: () => boolean): HubListener<'exhibit'> {
    return (event, publishedAt) => {
      if (event.type === 'exhibit.usersChanged') this.itemLevels.forget(exhibitId);
      this.deliver(event, publishedAt, () => {
        // Unsubscribed (or access lost) while earlier events waited: nothing more of this exhibit.
        if (!subscribed()) return false;
        return this.itemLevels.mayReceive(exhibitId, event);
      });
    };
  }

  /**
   * Sends an event if `mayReceive` says so. Usually that is known at once; when it must wait
   * (levels loading), later events wait behind it, so everything leaves in the order it came.
   */
  private deliver(event: ServerMessage, publishedAt: number | undefined, mayReceive: () => boolean | Promise<boolean>): void {
    if (!this.pending) {
      const verdict = mayReceive();
      if (typeof verdict === 'boolean') {
        if (verdict) this.send(event, publishedAt);
        return;
      }
      this.queueDelivery(Promise.resolve(), { event, publishedAt, mayReceive: () => verdict });
      return;
    }
    this.queueDelivery(this.pending, { event, publishedAt, mayReceive });
  }

  private queueDelivery(after: Promise<void>, delivery: HubDelivery & { mayReceive: () => boolean | Promise<boolean> }): void {
    const done: Promise<void> = after
      .then(async () => {
        if (await delivery.mayReceive()) this.send(delivery.event, delivery.publishedAt);
      })
      .catch((error: unknown) => {
        // Not knowing whether the user may see it, the event is not sent.
        this.deps.logger.warn({ failure: describeFailure(error) }, 'could not check an event against the user\'s levels');
      })
      .finally(() => {
        if (this.pending === done) this.pending = null;
      });
    this.pending = done;
  }

  /** Every subscription of this socket. */
  private dropAll(): void {
    this.dropExhibits([...this.exhibitSubscriptions.keys()]);
    this.dropHardware([...this.hardwareSubscriptions]);
  }

  private dropExhibits(ids: string[]): void {
    for (const id of ids) {
      this.exhibitSubscriptions.get(id)?.();
      this.exhibitSubscriptions.delete(id);
      this.itemLevels.forget(id);
    }
  }

  private dropHardware(ids: string[]): void {
    for (const id of ids) {
      if (this.hardwareSubscriptions.delete(id)) this.hardwareFanout.remove(id, this);
    }
  }

  private unsubscribe(exhibitIds?: string[], hardwareIds?: string[]): void {
    if (!exhibitIds && !hardwareIds) this.dropAll();
    else {
      this.dropExhibits(exhibitIds ?? []);
      this.dropHardware(hardwareIds ?? []);
    }
    this.send({ type: 'unsubscribed', exhibitIds: exhibitIds ?? [], hardwareIds: hardwareIds ?? [] });
  }
}
