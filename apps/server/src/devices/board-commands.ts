import { randomUUID } from 'node:crypto';
import { hardwareTopic, type CommandMessage, type CommandResult } from '@plinth/shared';
import type { MqttLink } from './mqtt-link.js';
import type { OutgoingCommand, SendCommandOptions } from './ports.js';

type Waiting = { hardwareId: string; resolve: (result: CommandResult) => void; timer: NodeJS.Timeout };

/**
 * Commands to boards (`cmd`, QoS 1) and their outcome: each carries a correlation id, and the
 * board's `result` with that id settles the command; no result in time settles it as a timeout.
 */
export class BoardCommands {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly link: MqttLink,
    private readonly timeoutMs: number,
  ) {}

  /** Publishes a command without waiting for its result (the debug state after an announce). */
  async publish(hardwareId: string, command: CommandMessage): Promise<void> {
    await this.link.publish(hardwareTopic(hardwareId, 'cmd'), JSON.stringify(command), 1);
  }

  /** Publishes a command and waits for the board's result (or the timeout). */
  async send(hardwareId: string, command: OutgoingCommand, options: SendCommandOptions = {}): Promise<CommandResult> {
    const correlationId = options.correlationId ?? randomUUID();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const result = new Promise<CommandResult>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(correlationId);
        resolve({ correlationId, ok: false, error: 'timeout' });
      }, timeoutMs);
      this.waiting.set(correlationId, { hardwareId, resolve, timer });
    });
    try {
      await this.publish(hardwareId, { ...command, correlationId } as CommandMessage);
    } catch (error) {
      const waiting = this.waiting.get(correlationId);
      if (waiting) clearTimeout(waiting.timer);
      this.waiting.delete(correlationId);
      throw error;
    }
    return result;
  }

  /** A board's result: settles the command it answers, if this instance sent it to that board. */
  settle(hardwareId: string, result: CommandResult): void {
    const waiting = this.waiting.get(result.correlationId);
    if (!waiting || waiting.hardwareId !== hardwareId) return;
    this.waiting.delete(result.correlationId);
    clearTimeout(waiting.timer);
    waiting.resolve(result);
  }

  /** Settles every command still waiting (the server is stopping). */
  close(): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve({ correlationId: id, ok: false, error: 'server stopping' });
    }
    this.waiting.clear();
  }
}
