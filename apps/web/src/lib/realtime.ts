import { notifyManager } from '@tanstack/react-query';
import { CONSOLE_CLOSE, parseServerMessage, SUBSCRIPTION_MAX_IDS, type ServerMessage } from '@plinth/shared';

export type RealtimeListener = (message: ServerMessage) => void;

/**
 * Whether live updates arrive: `live`; `reconnecting` while the socket is down (before the first
 * connection too); `stale` while the server says its link to the other nodes is lost.
 */
export type RealtimeStatus = 'live' | 'reconnecting' | 'stale';
export type Subscription = { exhibitIds?: string[]; hardwareIds?: string[] };

/** While the page is hidden (no animation frames), messages are handed out this often (ms). */
const HIDDEN_FLUSH_MS = 250;

/**
 * Ids per subscribe or unsubscribe message: the server takes at most SUBSCRIPTION_MAX_IDS per list
 * and closes a socket whose frame passes 256 KiB (10,001 ids were 390 KB: the socket closed and
 * reconnected in a loop on a site with 10,000 boards). 1,000 ids are some 39 KB.
 */
export const SUBSCRIPTION_CHUNK = Math.min(1000, SUBSCRIPTION_MAX_IDS);

const RECONNECT_MIN_MS = 1000;
const RECONNECT_MAX_MS = 15_000;

/**
 * The console's one socket to /ws. The session cookie authenticates the upgrade. Screens
 * subscribe to ids (reference counted, so two screens can share one id) and the client
 * re-subscribes everything after a reconnect.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private listeners = new Set<RealtimeListener>();
  private counts = new Map<string, number>();
  private retryMs = RECONNECT_MIN_MS;
  private stopped = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sessionEndedHandlers = new Set<() => void>();
  private statusListeners = new Set<(status: RealtimeStatus) => void>();
  private resyncHandlers = new Set<() => void>();
  private currentStatus: RealtimeStatus = 'reconnecting';
  /** Whether a socket was open before: a reconnect means events may have been missed. */
  private wasOpen = false;
  /** Messages received since the last hand-out. */
  private inbox: ServerMessage[] = [];
  private flushPlanned = false;

  constructor(private readonly url: string = defaultSocketUrl()) {}

  /**
   * Calls `handler` when the server closes the socket because the session ended (logout
   * elsewhere, password change, signed out by an admin); the client stops reconnecting.
   */
  onSessionEnded(handler: () => void): () => void {
    this.sessionEndedHandlers.add(handler);
    return () => this.sessionEndedHandlers.delete(handler);
  }

  /** Whether live updates arrive now. */
  get status(): RealtimeStatus {
    return this.currentStatus;
  }

  /** Calls `listener` when the status changes; answers the function that stops it. */
  onStatusChange(listener: (status: RealtimeStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * Calls `handler` when live updates come back after events may have been missed (the socket
   * reconnected, or the server's link to the other nodes is back): what is shown must be read again.
   */
  onResync(handler: () => void): () => void {
    this.resyncHandlers.add(handler);
    return () => this.resyncHandlers.delete(handler);
  }

  private setStatus(status: RealtimeStatus): void {
    if (status === this.currentStatus) return;
    const wasMissing = this.currentStatus !== 'live' && this.wasOpen;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
    if (status === 'live' && wasMissing) for (const handler of this.resyncHandlers) handler();
  }

  connect(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  disconnect(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
  }

  /** Listens to every message; returns the function that stops listening. */
  listen(listener: RealtimeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes to exhibits and hardware; returns the matching unsubscribe. */
  subscribe(subscription: Subscription): () => void {
    const keys = toKeys(subscription);
    const fresh = keys.filter((key) => {
      const n = this.counts.get(key) ?? 0;
      this.counts.set(key, n + 1);
      return n === 0;
    });
    if (fresh.length) this.sendSubscription('subscribe', fresh);
    return () => {
      const gone = keys.filter((key) => {
        const n = (this.counts.get(key) ?? 1) - 1;
        if (n <= 0) this.counts.delete(key);
        else this.counts.set(key, n);
        return n <= 0;
      });
      if (gone.length) this.sendSubscription('unsubscribe', gone);
    };
  }

  private open(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = RECONNECT_MIN_MS;
      if (this.counts.size) this.sendSubscription('subscribe', [...this.counts.keys()]);
      // The server says at once if its fan-out is degraded (realtime.status); until then it is live.
      this.setStatus('live');
      this.wasOpen = true;
    };
    socket.onmessage = (event) => {
      // Every message is checked against the contract; one that does not fit is not acted on.
      const message = parseServerMessage(String(event.data));
      if (!message) {
        console.warn('Plinth: a realtime message did not match the contract and was ignored.');
        return;
      }
      if (message.type === 'realtime.status') {
        this.setStatus(message.live ? 'live' : 'stale');
      }
      this.inbox.push(message);
      this.planFlush();
    };
    socket.onclose = (event) => {
      if (this.socket === socket) this.socket = null;
      this.setStatus('reconnecting');
      if (event.code === CONSOLE_CLOSE.sessionEnded) {
        this.stopped = true;
        for (const handler of this.sessionEndedHandlers) handler();
      }
      if (this.stopped) return;
      const delay = this.retryMs * (0.5 + Math.random());
      this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /**
   * Listeners get messages in batches, once per animation frame (every HIDDEN_FLUSH_MS while the
   * page is hidden), inside one TanStack notify batch: a burst of a thousand prop changes makes one
   * render, not a thousand, and the values shown are at most a frame behind.
   */
  private planFlush(): void {
    if (this.flushPlanned) return;
    this.flushPlanned = true;
    const flush = () => {
      this.flushPlanned = false;
      const batch = this.inbox;
      this.inbox = [];
      notifyManager.batch(() => {
        for (const message of batch) for (const listener of this.listeners) listener(message);
      });
    };
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(flush);
    else setTimeout(flush, HIDDEN_FLUSH_MS);
  }

  /** Sends ids in messages of at most SUBSCRIPTION_CHUNK (a site's 10,000 boards are ten messages). */
  private sendSubscription(type: 'subscribe' | 'unsubscribe', keys: string[]): void {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    for (let from = 0; from < keys.length; from += SUBSCRIPTION_CHUNK) {
      const chunk = keys.slice(from, from + SUBSCRIPTION_CHUNK);
      const exhibitIds = chunk.filter((k) => k.startsWith('e:')).map((k) => k.slice(2));
      const hardwareIds = chunk.filter((k) => k.startsWith('h:')).map((k) => k.slice(2));
      socket.send(JSON.stringify({ type, exhibitIds, hardwareIds }));
    }
  }
}

function toKeys(subscription: Subscription): string[] {
  return [
    ...(subscription.exhibitIds ?? []).map((id) => `e:${id}`),
    ...(subscription.hardwareIds ?? []).map((id) => `h:${id}`),
  ];
}

function defaultSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws`;
}
