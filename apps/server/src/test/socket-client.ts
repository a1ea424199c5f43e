import { WebSocket } from 'ws';
import type { ServerMessage } from '@plinth/shared';

/** A console socket for tests: it queues what the server sends and hands messages out in order. */
export class SocketClient {
  private readonly queue: ServerMessage[] = [];
  private wake: (() => void) | null = null;
  /** The close code and reason, once the server (or the test) closed the socket. */
  closed: { code: number; reason: string } | null = null;
  private readonly closedPromise: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.queue.push(JSON.parse(raw.toString()) as ServerMessage);
      this.wake?.();
    });
    this.closedPromise = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        resolve(this.closed);
        this.wake?.();
      });
    });
  }

  /** Opens /ws on the server at `baseUrl` (http://host:port) with these upgrade headers. */
  static async open(baseUrl: string, headers: Record<string, string> = {}): Promise<SocketClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers });
    const client = new SocketClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message from the server (fails the test if none comes within `timeoutMs`). */
  async next(timeoutMs = 5000): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) throw new Error(this.closed ? `the socket closed (${this.closed.code})` : 'no message from the server');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.queue.shift()!;
  }

  /** The next message of this type, skipping others (fails if none comes within `timeoutMs`). */
  async nextOfType<T extends ServerMessage['type']>(type: T, timeoutMs = 5000): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.next(Math.max(1, deadline - Date.now()));
      if (message.type === type) return message as Extract<ServerMessage, { type: T }>;
    }
  }

  /** Sends a ping and answers everything that arrived before its pong. */
  async drain(): Promise<ServerMessage[]> {
    this.send({ type: 'ping' });
    const before: ServerMessage[] = [];
    for (;;) {
      const message = await this.next();
      if (message.type === 'pong') return before;
      before.push(message);
    }
  }

  /** Resolves with the close code and reason when the socket closes, or rejects after `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the socket stayed open for ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.closedPromise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.ws.close();
  }
}
