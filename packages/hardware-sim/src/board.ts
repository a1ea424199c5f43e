import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import mqtt from 'mqtt';
import {
  CommandMessageSchema,
  DEFAULT_HEARTBEAT_MS,
  hardwareTopic,
  parsePayload,
  type AnnounceMessage,
  type BoardChannel,
  type LogMessage,
  type BoardPeripheral,
  type CommandMessage,
  type FirmwareProgress,
  type HeartbeatMessage,
} from '@plinth/shared';
import { defaultPeripherals } from './peripherals.js';

export type SimulatedBoardOptions = {
  /** Broker address, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  hardwareId: string;
  token: string;
  peripherals?: BoardPeripheral[];
  /** Plinth firmware version (46 and up offers Sync Hardware Values). */
  plinthFw?: string;
  userFw?: string;
  heartbeatMs?: number;
  /** Press the button peripheral on a timer. */
  pressEveryMs?: number;
  /**
   * The first wait before reconnecting after the connection was lost or could not be made, in ms
   * (default 1000); it doubles at each failed attempt up to `reconnectMaxMs`, with jitter.
   */
  reconnectMs?: number;
  /** The longest wait between reconnect attempts, in ms (default 30,000). */
  reconnectMaxMs?: number;
  /** How long a reboot keeps the board away, in ms. */
  rebootMs?: number;
  ip?: string;
  mac?: string;
  /** One line per event; the CLI prints them. */
  log?: (line: string) => void;
  /** How many log lines the board keeps while it is offline (the oldest go first). Default 1000. */
  maxQueuedLogs?: number;
};

/** What the board did, for tests and people watching. */
export type BoardEvent =
  | { kind: 'connected' }
  | { kind: 'refused'; reason: string }
  | { kind: 'disconnected' }
  | { kind: 'reconnecting'; inMs: number; reason: string }
  | { kind: 'command'; command: CommandMessage }
  | { kind: 'prop'; peripheralId: string; propName: string; value: string | number | boolean | null }
  | { kind: 'identify' }
  | { kind: 'firmware'; progress: FirmwareProgress };

/**
 * A board in software: connects with its hardware id and token, announces its peripherals,
 * heartbeats, obeys every command (reboot reconnects, identify blinks in the log, prop sets change
 * values and echo them back, get re-announces, firmware downloads over HTTP, checks its checksum,
 * reports the new version and reconnects).
 */
export class SimulatedBoard extends EventEmitter<{ event: [BoardEvent] }> {
  readonly hardwareId: string;
  peripherals: BoardPeripheral[];
  plinthFw: string;
  userFw: string;
  debug = false;
  private client: mqtt.MqttClient | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private pressTimer: NodeJS.Timeout | null = null;
  private readonly bootedAt = Date.now();
  private stopped = false;
  private silent = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** The current connection's epoch (docs/protocols/hardware-mqtt.md, status). */
  private epoch = 0;
  /** Failed attempts since the last connection: the backoff's exponent. */
  private attempts = 0;
  /** Settles `start()`: connected, or refused (a wrong token or id), or stopped. */
  private started: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /** Log lines not yet sent: kept while offline, sent in order once connected. */
  private readonly logOutbox: LogMessage[] = [];
  private flushingLogs = false;

  constructor(readonly options: SimulatedBoardOptions) {
    super();
    this.hardwareId = options.hardwareId;
    this.peripherals = structuredClone(options.peripherals ?? defaultPeripherals());
    this.plinthFw = options.plinthFw ?? '46';
    this.userFw = options.userFw ?? '1.0';
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /**
   * Connects and announces. A broker that cannot be reached (down, restarting, a network or DNS
   * failure) is tried again and again, with backoff and jitter, and so is every connection lost
   * later: only refused credentials stop the board (start() rejects, and a later refusal stops it).
   */
  async start(): Promise<void> {
    this.stopped = false;
    const started = new Promise<void>((resolve, reject) => (this.started = { resolve, reject }));
    this.attempt();
    await started;
    if (this.options.pressEveryMs) {
      this.pressTimer = setInterval(() => void this.pressButton(), this.options.pressEveryMs);
    }
  }

  /** One connection attempt; a failure other than a refusal plans the next one. */
  private attempt(): void {
    if (this.stopped || this.client) return;
    this.connect().then(
      () => {
        this.attempts = 0;
        this.started?.resolve();
        this.started = null;
      },
      (error: Error) => {
        if (isRefusal(error)) {
          this.stopped = true;
          this.print(`refused by the broker: ${error.message}. Check the hardware id and token; not retrying.`);
          this.started?.reject(error);
          this.started = null;
          return;
        }
        this.scheduleReconnect(`could not connect to ${this.options.url}: ${error.message}`);
      },
    );
  }

  private async connect(): Promise<void> {
    // This connection's number for the server's ordering of statuses (the same in its last will).
    const epoch = Math.max(Date.now(), this.epoch + 1);
    this.epoch = epoch;
    const client = mqtt.connect(this.options.url, {
      username: this.hardwareId,
      password: this.options.token,
      clientId: `hw-${this.hardwareId.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}`,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      will: { topic: hardwareTopic(this.hardwareId, 'status'), payload: Buffer.from(JSON.stringify({ online: false, epoch })), qos: 1, retain: false },
    });
    this.client = client;
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', (error) => {
          if (isRefusal(error)) this.emit('event', { kind: 'refused', reason: error.message });
          reject(error);
        });
        // A broker that does not answer (connect timeout) closes without an error.
        client.once('close', () => reject(new Error('the connection closed before the broker answered')));
      });
    } catch (error) {
      if (this.client === client) this.client = null;
      client.end(true);
      throw error;
    }
    client.on('error', (error) => this.print(`error: ${error.message}`));
    // A command whose answer the connection cut (a drop, a reboot) is lost, as on a real board.
    client.on('message', (topic, payload) => {
      this.onMessage(topic, payload).catch((error: Error) => this.print(`could not answer a command: ${error.message}`));
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      this.stopHeartbeat();
      this.print('disconnected by the broker');
      this.emit('event', { kind: 'disconnected' });
      this.scheduleReconnect('the connection was lost');
    });
    await client.subscribeAsync(hardwareTopic(this.hardwareId, 'cmd'), { qos: 1 });
    // stop() or a drop may come during any of these round trips: this connection is then no longer
    // the board's, and must not start a heartbeat (its timer would keep a stopped board's process alive).
    if (this.client !== client) return;
    this.print(`connected to ${this.options.url}`);
    this.emit('event', { kind: 'connected' });
    await this.publish('status', { online: true, epoch });
    await this.announce();
    if (this.client !== client) return;
    this.startHeartbeat();
    this.logLine('info', `booted (plinth firmware ${this.plinthFw}, user firmware ${this.userFw})`);
  }

  /**
   * Logs a line to Plinth (the `log` channel), stamped with the board's time. Lines logged while
   * the board is offline or silent wait and go out in order, once, when it is connected again.
   */
  logLine(level: LogMessage['level'], message: string): void {
    this.logOutbox.push({ level, message, timestamp: new Date().toISOString() });
    const max = this.options.maxQueuedLogs ?? 1000;
    if (this.logOutbox.length > max) this.logOutbox.splice(0, this.logOutbox.length - max);
    void this.flushLogs();
  }

  /** Waits until every queued log line is sent (or `timeoutMs` passed, or the board is offline). */
  private async drainLogs(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.logOutbox.length > 0 && this.client?.connected && !this.silent && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private async flushLogs(): Promise<void> {
    if (this.flushingLogs) return;
    this.flushingLogs = true;
    try {
      while (this.logOutbox.length > 0 && this.client?.connected && !this.silent) {
        const client = this.client;
        const sent = client.publishAsync(hardwareTopic(this.hardwareId, 'log'), JSON.stringify(this.logOutbox[0]), { qos: 1 }).then(() => true);
        // A publish the connection dropped under may never settle: give up on it after a while.
        const ok = await Promise.race([sent, new Promise<boolean>((resolve) => setTimeout(resolve, 5000, false).unref())]).catch(() => false);
        // A line whose publish the connection cut stays first in the queue for the next connection.
        if (!ok || this.client !== client) break;
        this.logOutbox.shift();
      }
    } finally {
      // Lines logged meanwhile were taken by the loop; a line whose publish failed waits for the
      // next line or connection (retrying at once could spin while a dying connection refuses).
      this.flushingLogs = false;
    }
  }

  /**
   * Plans the next attempt: the first wait is `reconnectMs`, doubling up to `reconnectMaxMs`, each
   * between 50 % and 100 % of that (jitter, so that a venue's boards do not all come back at once).
   * The timer holds the process (the command line keeps running while the broker is away).
   */
  private scheduleReconnect(reason: string): void {
    if (this.stopped || this.reconnectTimer) return;
    const min = this.options.reconnectMs ?? 1000;
    const max = Math.max(min, this.options.reconnectMaxMs ?? 30_000);
    const ceiling = Math.min(max, min * 2 ** Math.min(this.attempts, 16));
    this.attempts += 1;
    const inMs = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    this.print(`${reason}; reconnecting in ${(inMs / 1000).toFixed(1)} s`);
    this.emit('event', { kind: 'reconnecting', inMs, reason });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.attempt();
    }, inMs);
  }

  /** Publishes on one of the board's channels (tests use it to try topics that are not theirs). */
  async publish(channel: BoardChannel, message: unknown): Promise<void> {
    await this.client?.publishAsync(hardwareTopic(this.hardwareId, channel), JSON.stringify(message), { qos: 1 });
  }

  /** The MQTT client, for tests that probe the broker's rules. */
  get mqttClient(): mqtt.MqttClient | null {
    return this.client;
  }

  async announce(): Promise<void> {
    const message: AnnounceMessage = {
      plinth_fw: this.plinthFw,
      user_fw: this.userFw,
      ip: this.options.ip ?? '10.0.0.42',
      mac: this.options.mac ?? 'DE:AD:BE:EF:00:01',
      heartbeatMs: this.heartbeatMs,
      peripherals: this.peripherals,
    };
    await this.publish('announce', message);
    this.print(`announced plinth_fw ${this.plinthFw}, user_fw ${this.userFw}, ${this.peripherals.length} peripherals`);
  }

  get heartbeatMs(): number {
    return this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    void this.heartbeat();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  async heartbeat(): Promise<void> {
    if (this.silent || !this.connected) return;
    const beat: HeartbeatMessage = {
      voltage: Math.round((4.9 + Math.random() * 0.2) * 100) / 100,
      temp: Math.round((30 + Math.random() * 5) * 10) / 10,
      uptime: Math.floor((Date.now() - this.bootedAt) / 60_000),
      exhibitState: 'running',
      exhibitIP: '10.0.0.7',
    };
    await this.publish('heartbeat', beat).catch(() => undefined);
  }

  /** Stops heartbeats (and every other message) while staying connected: a silent board. */
  silence(): void {
    this.silent = true;
    this.stopHeartbeat();
    this.print('silent: no more heartbeats');
  }

  /** Presses and releases the button peripheral. */
  async pressButton(): Promise<void> {
    const button = this.peripherals.find((p) => p.props.some((prop) => prop.type === 'button'));
    const prop = button?.props.find((p) => p.type === 'button');
    if (!button || !prop || !this.connected) return;
    await this.changeProp(button.id, prop.name, 1);
    setTimeout(() => void this.changeProp(button.id, prop.name, 0), 200).unref();
  }

  /** Changes a prop's value on the board and publishes it. */
  async changeProp(peripheralId: string, propName: string, value: string | number | boolean | null): Promise<void> {
    const prop = this.findProp(peripheralId, propName);
    if (!prop) return;
    prop.value = value;
    this.print(`prop ${peripheralId}.${propName} = ${JSON.stringify(value)}`);
    this.emit('event', { kind: 'prop', peripheralId, propName, value });
    await this.publish('prop', { peripheralId, propName, value }).catch(() => undefined);
  }

  findProp(peripheralId: string, propName: string) {
    return this.peripherals.find((p) => p.id === peripheralId)?.props.find((p) => p.name === propName);
  }

  /** Answers a command: whether it worked, why not, and what it read. */
  private async result(correlationId: string, outcome: { ok: boolean; error?: string; data?: unknown }): Promise<void> {
    const { ok, error, data } = outcome;
    await this.publish('result', { correlationId, ok, ...(error ? { error } : {}), ...(data !== undefined ? { data } : {}) });
  }

  private async onMessage(topic: string, payload: Buffer): Promise<void> {
    if (topic !== hardwareTopic(this.hardwareId, 'cmd')) return;
    const parsed = parsePayload(CommandMessageSchema, payload);
    if (!parsed.success) return this.print(`ignored an invalid command (${parsed.reason}): ${payload.toString('utf8').slice(0, 200)}`);
    const command = parsed.data;
    this.emit('event', { kind: 'command', command });
    switch (command.command) {
      case 'reboot':
        this.print('reboot requested');
        this.logLine('info', 'reboot requested');
        await this.result(command.correlationId, { ok: true });
        await this.reboot();
        return;
      case 'identify':
        this.print('identify: blinking the status LED');
        this.logLine('info', 'identify: blinking the status LED');
        for (let i = 1; i <= 3; i++) this.print(`identify: blink ${i}/3`);
        this.emit('event', { kind: 'identify' });
        await this.result(command.correlationId, { ok: true });
        return;
      case 'get':
        this.print('get: sending every value');
        await this.announce();
        await this.result(command.correlationId, { ok: true });
        return;
      case 'debug':
        this.debug = command.on;
        this.print(`debug mode ${command.on ? 'on' : 'off'}`);
        this.logLine('info', `debug mode ${command.on ? 'on' : 'off'}`);
        await this.result(command.correlationId, { ok: true });
        return;
      case 'set': {
        const prop = this.findProp(command.peripheralId, command.propName);
        if (!this.debug) return this.result(command.correlationId, { ok: false, error: 'debug mode is off' });
        if (!prop) return this.result(command.correlationId, { ok: false, error: 'unknown peripheral or prop' });
        if (prop.settable !== 'true') return this.result(command.correlationId, { ok: false, error: 'prop is read-only' });
        await this.changeProp(command.peripheralId, command.propName, command.value);
        this.logLine('info', `set ${command.peripheralId}.${command.propName} to ${JSON.stringify(command.value)}`);
        await this.result(command.correlationId, { ok: true, data: { value: command.value } });
        return;
      }
      case 'firmware':
        await this.result(command.correlationId, { ok: true });
        void this.updateFirmware(command);
        return;
    }
  }

  private async progress(progress: FirmwareProgress): Promise<void> {
    const text = `firmware ${progress.state}${progress.version ? ` ${progress.version}` : ''}${progress.error ? `: ${progress.error}` : ''}`;
    this.print(text);
    this.logLine(progress.state === 'failed' ? 'error' : 'info', text);
    this.emit('event', { kind: 'firmware', progress });
    await this.publish('firmware', progress).catch(() => undefined);
  }

  private async updateFirmware(command: Extract<CommandMessage, { command: 'firmware' }>): Promise<void> {
    const { correlationId, version } = command;
    await this.progress({ correlationId, state: 'downloading', version });
    try {
      const auth = Buffer.from(`${this.hardwareId}:${this.options.token}`).toString('base64');
      const response = await fetch(command.url, { headers: { authorization: `Basic ${auth}` } });
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const body = Buffer.from(await response.arrayBuffer());
      await this.progress({ correlationId, state: 'verifying', version });
      const sha256 = createHash('sha256').update(body).digest('hex');
      if (body.length !== command.size || sha256 !== command.sha256) throw new Error('checksum mismatch');
      if (command.kind === 'plinth') this.plinthFw = version;
      else this.userFw = version;
      await this.progress({ correlationId, state: 'applied', version });
      await this.reboot();
    } catch (error) {
      await this.progress({ correlationId, state: 'failed', version, error: (error as Error).message });
    }
  }

  /** Drops the connection as a power cycle would (the last will fires), then reconnects. */
  async reboot(): Promise<void> {
    this.print('rebooting');
    this.logLine('warn', 'rebooting');
    // As a real board writes out its log before it restarts: a line cut off in flight would be
    // sent again after the reboot (MQTT delivers at least once), and show twice.
    await this.drainLogs(2000);
    this.drop();
    await new Promise((r) => setTimeout(r, this.options.rebootMs ?? 300));
    if (this.stopped) return;
    this.silent = false;
    // Back as after any lost connection: tried again until the broker takes it.
    this.attempt();
  }

  /** Cuts the connection without a goodbye, so the broker publishes the last will. */
  drop(): void {
    const client = this.client;
    this.stopHeartbeat();
    if (!client) return;
    this.client = null;
    client.stream?.destroy();
    client.end(true);
    this.print('connection dropped');
    this.emit('event', { kind: 'disconnected' });
  }

  /** Says goodbye (status offline) and disconnects. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.started?.reject(new Error('stopped before it connected'));
    this.started = null;
    if (this.pressTimer) clearInterval(this.pressTimer);
    this.stopHeartbeat();
    const client = this.client;
    this.client = null;
    if (!client) return;
    // A connection the broker dropped under us may never settle a publish or a graceful end:
    // each step has a deadline, and the connection is then closed by force.
    const within = (work: Promise<unknown>) =>
      Promise.race([work.then(() => true, () => false), new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref())]);
    if (client.connected) {
      await within(client.publishAsync(hardwareTopic(this.hardwareId, 'status'), JSON.stringify({ online: false, epoch: this.epoch }), { qos: 1 }));
    }
    if (!(await within(client.endAsync()))) client.end(true);
    this.print('stopped');
  }

  private print(message: string): void {
    this.options.log?.(`${new Date().toISOString()} hw ${this.hardwareId.slice(0, 8)} ${message}`);
  }
}

/** Whether the broker refused the board's credentials (CONNACK 4 or 5, MQTT 5's 134 or 135): retrying cannot help. */
function isRefusal(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 4 || code === 5 || code === 134 || code === 135;
}

/** Starts a simulated board in process (for tests and benchmarks). */
export async function startSimulatedBoard(options: SimulatedBoardOptions): Promise<SimulatedBoard> {
  const board = new SimulatedBoard(options);
  await board.start();
  return board;
}
