import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import {
  parseManifest,
  type Manifest,
  type ManifestInput,
  type ManifestSetting,
  type SettingGroupDefinition,
  type WrappedManifestInput,
} from '../../shared/src/api/manifest.js';
import type { SettingValue } from '../../shared/src/api/setting-value.js';
import {
  EXHIBIT_CLOSE,
  EXHIBIT_HEARTBEAT_MS,
  EXHIBIT_OFFLINE_AFTER_MS,
  SDK_PROTOCOL_VERSION,
  parseGatewayMessage,
  type ExhibitCredential,
  type GatewayMessage,
  type GatewayMessageOf,
  type SdkContentEntry,
  type SdkListItem,
  type SdkMessage,
} from '../../shared/src/sdk-protocol.js';
import type { OpMode } from '../../shared/src/constants.js';
import type { LogLevel } from '../../shared/src/values.js';
import { ContentSync, type FilesChange, type LocalFile } from './content-sync.js';

export type { FilesChange, LocalFile } from './content-sync.js';

/** The op mode of the exhibit: On or Off. */
export type OpModeValue = OpMode;

export type ExhibitOptions = {
  /** The Plinth server, e.g. http://localhost:3000. */
  serverUrl: string;
  /** The exhibit's id (shown on its auth tab). */
  exhibitId: string;
  /** An exhibit token (created on the auth tab; shown once). */
  token: string;
  /**
   * The manifest as an object, or the path of a JSON file holding it; Gumband's wrapped form
   * `{"manifest": {...}}` is read as the manifest it wraps.
   */
  manifest: ManifestInput | WrappedManifestInput | string;
  /**
   * The folder the exhibit's files are mirrored to: files uploaded in the console are downloaded
   * there (checked by SHA-256, renamed into place whole), files deleted there are deleted here.
   * A FileSelection setting naming a file is delivered once that file is on disk.
   */
  contentDir?: string;
  /** Leave the organization's '[ORG]' files out of the content folder (default false: they are synced too). */
  skipOrganizationFiles?: boolean;
  /** Reconnect backoff bounds in ms (default 500 to 30,000), with jitter. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Log lines kept while offline; the oldest are dropped beyond this (default 1,000). */
  maxQueuedLogs?: number;
};

/** A StrapiContent setting's chosen entry: its id and its fields as the content manager holds them. */
export type ContentEntry = SdkContentEntry;

/** A list item as the exhibit sees it: its name, position and values by setting id. */
export type SettingListItemValues = { listName: string; order: number; values: Record<string, SettingValue> };

/** The typed events of an exhibit. */
export type ExhibitEvents = {
  /** Authenticated and the manifest synced (first time only). */
  ready: [];
  /** A control was fired in the console; itemId names the button of a group control. */
  control: [{ id: string; itemId?: string }];
  /**
   * A setting value to apply (typed: booleans for toggles, numbers for integers). A StrapiContent
   * setting also gives `content`: the chosen entry (null when none is chosen).
   */
  setting: [{ id: string; value: SettingValue; content?: ContentEntry | null }];
  /** A setting list changed (items created, copied, reordered, deleted or edited). */
  settingList: [{ id: string; items: SettingListItemValues[] }];
  opMode: [{ value: OpModeValue }];
  /** Files were added, updated or removed in `contentDir` (names). */
  files: [FilesChange];
  /** The socket is up and synced again after a disconnection. */
  connected: [];
  disconnected: [{ code: number; reason: string }];
  /** Emitted only when a listener is attached, so an unhandled error never stops the exhibit. */
  error: [Error];
};

type Waiter = { resolve: () => void; reject: (error: Error) => void };

/** One logger line as the `log` message carries it. */
type LogEntry = Extract<SdkMessage, { type: 'log' }>['entries'][number];

/** The most lines one `log` message may carry (the protocol's limit). */
const LOG_BATCH_MAX = 500;

/** An error the server answered, with its HTTP-like status (400 bad manifest, 401, 406 locked, 426 newer protocol). */
export class ExhibitError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ExhibitError';
  }
}

/**
 * One exhibit's connection to Plinth. It authenticates, sends its manifest, then holds a
 * socket: controls, settings and op mode arrive as events; statuses, logs and report events go
 * out. It reconnects on its own (backoff with jitter) and re-syncs every value on reconnect.
 */
export class Exhibit extends EventEmitter<ExhibitEvents> {
  readonly exhibitId: string;
  readonly contentDir: string | undefined;
  /** A logger whose lines reach the exhibit's logs tab (queued while offline). */
  readonly logger: Record<LogLevel, (message: unknown) => void>;

  private readonly options: ExhibitOptions;
  private manifest: Manifest | null = null;
  private socket: WebSocket | null = null;
  private closed = false;
  private isSynced = false;
  private hasBeenReady = false;
  private attempt = 0;
  private requestCounter = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private lastHeard = Date.now();
  private readonly settings = new Map<string, SettingValue>();
  private readonly contents = new Map<string, ContentEntry | null>();
  private readonly settingLists = new Map<string, SdkListItem[]>();
  private readonly statuses = new Map<string, string | number | null>();
  private readonly unsentStatuses = new Set<string>();
  private opMode: OpModeValue = 'Off';
  private pendingOpMode: OpModeValue | null = null;
  private readonly outbox: SdkMessage[] = [];
  /** Logger lines of the current tick, sent as one `log` message (before any other message, so order holds). */
  private readonly pendingLogs: LogEntry[] = [];
  private readonly manifestWaiters: Waiter[] = [];
  private readonly contentSync: ContentSync | null;
  /** FileSelection values held until their file is on disk, by setting id (or list id). */
  private readonly heldForFiles = new Map<string, unknown>();
  private readonly readyPromise: Promise<void>;
  private settleReady!: { resolve: () => void; reject: (error: Error) => void };

  constructor(options: ExhibitOptions) {
    super();
    this.options = options;
    this.exhibitId = options.exhibitId;
    this.contentDir = options.contentDir;
    this.contentSync = options.contentDir
      ? new ContentSync({
          dir: options.contentDir,
          serverUrl: options.serverUrl,
          exhibitId: options.exhibitId,
          token: options.token,
          skipOrganizationFiles: options.skipOrganizationFiles ?? false,
          onChange: (change) => this.emit('files', change),
          onError: (error) => {
            if (this.listenerCount('error') > 0) this.emit('error', error);
          },
        })
      : null;
    this.readyPromise = new Promise<void>((resolve, reject) => {
      this.settleReady = { resolve, reject };
    });
    // ready() may never be awaited; an unobserved rejection must not crash the exhibit.
    this.readyPromise.catch(() => undefined);
    const log = (level: LogLevel) => (message: unknown) => this.log(level, message);
    this.logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
    // Start once the caller has attached its listeners.
    setImmediate(() => void this.start());
  }

  /** Resolves once authenticated and the manifest is synced; rejects on a bad manifest, a bad token or a locked exhibit. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Disconnects for good. */
  close(): void {
    this.sendPendingLogs();
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    this.contentSync?.close();
    this.socket?.close(1000, 'closed by the exhibit');
    this.socket = null;
    this.settleReady.reject(new ExhibitError('The exhibit was closed before it was ready.', 0));
  }

  get isConnected(): boolean {
    return this.isSynced && this.socket?.readyState === WebSocket.OPEN;
  }

  setStatus(id: string, value: string | number | null): void {
    this.statuses.set(id, value);
    if (!this.sendNow({ type: 'status', id, value })) this.unsentStatuses.add(id);
  }

  getStatus(id: string): string | number | null | undefined {
    return this.statuses.get(id);
  }

  getSetting(id: string): SettingValue | undefined {
    return this.settings.get(id);
  }

  /** A StrapiContent setting's chosen entry (null when none; undefined for other settings). */
  getSettingContent(id: string): ContentEntry | null | undefined {
    return this.contents.get(id);
  }

  getSettings(): Record<string, SettingValue> {
    return Object.fromEntries(this.settings);
  }

  getSettingList(id: string): SettingListItemValues[] | undefined {
    const items = this.settingLists.get(id);
    return items?.map((i) => ({ listName: i.listName, order: i.order, values: { ...i.values } }));
  }

  /** The files the SDK placed in `contentDir` (empty without one). */
  async getFiles(): Promise<LocalFile[]> {
    return this.contentSync ? this.contentSync.list() : [];
  }

  getOpMode(): OpModeValue {
    return this.opMode;
  }

  /** Changes the op mode from the exhibit's side (the console sees it live). */
  setOpMode(value: OpModeValue): void {
    this.opMode = value;
    if (!this.sendNow({ type: 'opMode', value })) this.pendingOpMode = value;
  }

  /** A report event for the reports tab (sent now, or queued while offline). */
  event(name: string, data?: string | number | boolean | null): void {
    this.queue({ type: 'event', name, data: data ?? null, timestamp: new Date().toISOString() });
  }

  /** Replaces the manifest; rejects when it is invalid or the exhibit is locked (406). */
  async setManifest(manifest: ManifestInput | WrappedManifestInput | string): Promise<void> {
    const parsed = await this.loadManifest(manifest);
    this.manifest = parsed;
    const answered = new Promise<void>((resolve, reject) => this.manifestWaiters.push({ resolve, reject }));
    if (this.socket?.readyState === WebSocket.OPEN && this.isSynced) this.sendManifest();
    return answered;
  }

  // -------------------------------------------------------------------------------------------

  private async start(): Promise<void> {
    try {
      this.manifest = await this.loadManifest(this.options.manifest);
    } catch (error) {
      this.closed = true;
      this.fail(error as Error);
      return;
    }
    void this.connect();
  }

  private async loadManifest(source: ManifestInput | WrappedManifestInput | string): Promise<Manifest> {
    const json: unknown = typeof source === 'string' ? JSON.parse(await readFile(source, 'utf8')) : source;
    const parsed = parseManifest(json);
    if (!parsed.success) throw new ExhibitError(parsed.message, 400);
    return parsed.manifest;
  }

  private fail(error: Error): void {
    this.settleReady.reject(error);
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let credential: ExhibitCredential;
    try {
      credential = await this.authenticate();
    } catch (error) {
      if (error instanceof ExhibitError && error.status === 401) {
        this.closed = true;
        this.fail(error);
        return;
      }
      this.scheduleReconnect();
      return;
    }
    if (this.closed) return;
    const url = new URL('/ws?client=exhibit', this.options.serverUrl.replace(/^http/, 'ws'));
    const socket = new WebSocket(url);
    this.socket = socket;
    this.lastHeard = Date.now();
    socket.on('open', () => {
      this.send({ type: 'auth', exhibitId: this.exhibitId, token: credential.credential });
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = setInterval(() => this.heartbeat(socket), EXHIBIT_HEARTBEAT_MS);
      this.heartbeatTimer.unref();
    });
    socket.on('message', (raw) => {
      this.lastHeard = Date.now();
      // What does not parse is not from a server this SDK speaks to: it is left alone.
      const message = parseGatewayMessage(raw.toString());
      if (message) this.handle(message);
    });
    socket.on('pong', () => {
      this.lastHeard = Date.now();
    });
    socket.on('ping', () => {
      this.lastHeard = Date.now();
    });
    socket.on('error', () => undefined); // 'close' follows and reconnects
    socket.on('close', (code, reason) => this.onClose(socket, code, reason.toString()));
  }

  private async authenticate(): Promise<ExhibitCredential> {
    const url = new URL('/api/v1/auth/exhibit/authenticate', this.options.serverUrl);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exhibitId: this.exhibitId, token: this.options.token }),
    });
    const body = (await res.json().catch(() => null)) as (ExhibitCredential & { message?: string }) | null;
    if (res.status === 401 || res.status === 400) {
      throw new ExhibitError(body?.message ?? 'The exhibit id or token is not valid.', 401);
    }
    if (!res.ok || !body?.credential) throw new ExhibitError(`Authentication failed (${res.status}).`, res.status);
    return body;
  }

  private heartbeat(socket: WebSocket): void {
    if (socket !== this.socket) return;
    if (Date.now() - this.lastHeard > EXHIBIT_OFFLINE_AFTER_MS) {
      socket.terminate();
      return;
    }
    if (socket.readyState === WebSocket.OPEN) socket.ping();
  }

  private onClose(socket: WebSocket, code: number, reason: string): void {
    if (socket !== this.socket) return;
    this.socket = null;
    clearInterval(this.heartbeatTimer);
    const wasSynced = this.isSynced;
    this.isSynced = false;
    if (wasSynced || this.hasBeenReady) this.emit('disconnected', { code, reason });
    if (this.closed) return;
    const fatal: Record<number, string> = {
      [EXHIBIT_CLOSE.unauthorized]: 'The exhibit token was revoked or is not valid.',
      [EXHIBIT_CLOSE.deleted]: 'The exhibit was deleted.',
      [EXHIBIT_CLOSE.replaced]: 'Another connection of this exhibit took over.',
    };
    if (fatal[code]) {
      this.closed = true;
      this.fail(new ExhibitError(fatal[code], code === EXHIBIT_CLOSE.unauthorized ? 401 : 409));
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const min = this.options.reconnectMinMs ?? 500;
    const max = this.options.reconnectMaxMs ?? 30_000;
    const ceiling = Math.min(max, min * 2 ** this.attempt);
    this.attempt += 1;
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  private handle(message: GatewayMessage): void {
    switch (message.type) {
      case 'auth.ok':
        if ((message.protocolVersion ?? 1) > SDK_PROTOCOL_VERSION) {
          this.stopForProtocol(message.protocolVersion ?? 1);
          return;
        }
        this.contentSync?.reset();
        this.sendManifest();
        return;
      case 'manifest.ok':
        this.settleManifest(null);
        return;
      case 'manifest.error': {
        const error = new ExhibitError(message.message, message.status);
        this.settleManifest(error);
        if (!this.hasBeenReady) this.fail(error);
        else if (this.listenerCount('error') > 0) this.emit('error', error);
        return;
      }
      case 'exhibit.synced':
        this.applySync(message);
        return;
      case 'control.fired':
        this.emit('control', message.itemId === undefined ? { id: message.controlId } : { id: message.controlId, itemId: message.itemId });
        return;
      case 'setting.changed':
        if (!this.heldUntilFiles(message.settingId, message.value, message.version)) this.deliverSetting(message);
        return;
      case 'settingList.changed':
        if (!this.listHeldUntilFiles(message.listId, message.items)) this.deliverList(message.listId, message.items);
        return;
      case 'files.changed':
        this.contentSync?.update(message.files, message.organizationalUnavailable ?? false);
        return;
      case 'opMode.changed':
        this.applyOpMode(message.opMode);
        return;
      case 'error':
        if (this.listenerCount('error') > 0) this.emit('error', new ExhibitError(message.message, 400));
        return;
      case 'pong':
        return;
    }
  }

  /** A server of a newer protocol: stop with a clear error rather than misread its messages. */
  private stopForProtocol(version: number): void {
    this.closed = true;
    this.socket?.close(1000, 'protocol version not supported');
    this.fail(
      new ExhibitError(
        `The Plinth server speaks exhibit protocol version ${version}; this SDK speaks version ${SDK_PROTOCOL_VERSION}. Upgrade @plinth/sdk.`,
        426,
      ),
    );
  }

  private sendManifest(): void {
    this.requestCounter += 1;
    this.send({ type: 'manifest', requestId: String(this.requestCounter), manifest: this.manifest });
  }

  private settleManifest(error: Error | null): void {
    for (const waiter of this.manifestWaiters.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  private applySync(message: GatewayMessageOf<'exhibit.synced'>): void {
    // Values naming a file not yet in contentDir are applied (and acknowledged) once it is.
    const settings = message.settings.filter((s) => !this.heldUntilFiles(s.settingId, s.value, s.version));
    const lists = message.settingLists.filter((l) => !this.listHeldUntilFiles(l.listId, l.items));
    for (const s of settings) this.applySetting(s.settingId, s.value, s.content);
    for (const list of lists) this.applyList(list.listId, list.items);
    for (const status of message.statuses) if (!this.statuses.has(status.statusId)) this.statuses.set(status.statusId, status.value);
    if (this.pendingOpMode) {
      this.opMode = this.pendingOpMode;
      this.send({ type: 'opMode', value: this.pendingOpMode });
      this.pendingOpMode = null;
    } else {
      this.applyOpMode(message.opMode);
    }
    this.send({
      type: 'ack',
      settings: settings.map((s) => ({ id: s.settingId, version: s.version })),
      listItems: lists.flatMap((l) => l.items.map((i) => ({ listId: l.listId, listName: i.listName, version: i.version }))),
    });
    this.isSynced = true;
    this.attempt = 0;
    this.flush();
    if (!this.hasBeenReady) {
      this.hasBeenReady = true;
      this.settleReady.resolve();
      this.emit('ready');
    } else {
      this.emit('connected');
    }
  }

  private deliverSetting(change: { settingId: string; value: SettingValue; version: number; content?: ContentEntry | null }): void {
    this.applySetting(change.settingId, change.value, change.content);
    this.send({ type: 'ack', settings: [{ id: change.settingId, version: change.version }], listItems: [] });
  }

  private deliverList(listId: string, items: SdkListItem[]): void {
    this.applyList(listId, items);
    this.send({ type: 'ack', settings: [], listItems: items.map((i) => ({ listId, listName: i.listName, version: i.version })) });
  }

  /** True when the value waits for its file; it is delivered (and acknowledged) once the file is in `contentDir`. */
  private heldUntilFiles(id: string, value: SettingValue, version: number): boolean {
    return this.holdUntilFiles(id, this.fileNamesOfSetting(id, value), () => this.deliverSetting({ settingId: id, value, version }));
  }

  private listHeldUntilFiles(listId: string, items: SdkListItem[]): boolean {
    return this.holdUntilFiles(`list:${listId}`, this.fileNamesOfList(listId, items), () => this.deliverList(listId, items));
  }

  /**
   * Holds `deliver` until the named files are in `contentDir` (true), or lets the caller deliver
   * now (false). A newer value for the same key replaces a held one, so a stale value never lands.
   */
  private holdUntilFiles(key: string, names: string[], deliver: () => void): boolean {
    const sync = this.contentSync;
    this.heldForFiles.delete(key);
    if (!sync || !names.length || sync.holds(names)) return false;
    const token = {};
    this.heldForFiles.set(key, token);
    void sync.whenPresent(names).then(() => {
      if (this.heldForFiles.get(key) !== token || this.closed) return;
      this.heldForFiles.delete(key);
      deliver();
    });
    return true;
  }

  /** The file a FileSelection setting's value names (none for other settings). */
  private fileNamesOfSetting(id: string, value: SettingValue): string[] {
    return typeof value === 'string' && value && this.fileSettingIds().plain.has(id) ? [value] : [];
  }

  /** The files the FileSelection settings of a list's items name. */
  private fileNamesOfList(listId: string, items: SdkListItem[]): string[] {
    const ids = this.fileSettingIds().lists.get(listId);
    if (!ids) return [];
    return items.flatMap((i) => [...ids].map((id) => i.values[id]).filter((v): v is string => typeof v === 'string' && v !== ''));
  }

  /** The manifest's FileSelection settings: plain ones (top level and in groups) and per list. */
  private fileSettingIds(): { plain: Set<string>; lists: Map<string, Set<string>> } {
    const plain = new Set<string>();
    const lists = new Map<string, Set<string>>();
    const isFile = (s: ManifestSetting) => s.type === 'FileSelection';
    const visit = (scope: { settings?: ManifestSetting[]; settingLists?: Manifest['settingLists']; settingGroups?: SettingGroupDefinition[] }) => {
      for (const s of scope.settings ?? []) if (isFile(s)) plain.add(s.id);
      for (const list of scope.settingLists ?? []) {
        const ids = list.settings.filter(isFile).map((s) => s.id);
        if (ids.length) lists.set(list.id, new Set(ids));
      }
      for (const group of scope.settingGroups ?? []) visit(group);
    };
    if (this.manifest) visit(this.manifest);
    return { plain, lists };
  }

  /** Emits `setting` when the value (or a StrapiContent setting's entry) changed. */
  private applySetting(id: string, value: SettingValue, content?: ContentEntry | null): void {
    const hasContent = content !== undefined;
    const isSameValue = this.settings.has(id) && this.settings.get(id) === value;
    const isSameContent = !hasContent || (this.contents.has(id) && JSON.stringify(this.contents.get(id)) === JSON.stringify(content));
    if (isSameValue && isSameContent) return;
    this.settings.set(id, value);
    if (hasContent) this.contents.set(id, content);
    this.emit('setting', hasContent ? { id, value, content } : { id, value });
  }

  private applyList(id: string, items: SdkListItem[]): void {
    const before = JSON.stringify(this.settingLists.get(id)?.map(({ version: _v, ...rest }) => rest));
    const sorted = [...items].sort((a, b) => a.order - b.order);
    this.settingLists.set(id, sorted);
    if (before === JSON.stringify(sorted.map(({ version: _v, ...rest }) => rest))) return;
    this.emit('settingList', { id, items: sorted.map((i) => ({ listName: i.listName, order: i.order, values: { ...i.values } })) });
  }

  private applyOpMode(value: OpModeValue): void {
    if (value === this.opMode && this.hasBeenReady) return;
    this.opMode = value;
    this.emit('opMode', { value });
  }

  private log(level: LogLevel, message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.pendingLogs.push({ level, message: text.slice(0, 10_000), timestamp: new Date().toISOString() });
    // The lines of one tick go out together: one message for the server to parse, not one a line.
    if (this.pendingLogs.length === 1) queueMicrotask(() => this.sendPendingLogs());
    else if (this.pendingLogs.length >= LOG_BATCH_MAX) this.sendPendingLogs();
  }

  private sendPendingLogs(): void {
    if (!this.pendingLogs.length) return;
    const entries = this.pendingLogs.splice(0);
    if (this.sendNow({ type: 'log', entries })) return;
    // Offline: kept one line a message, so that `maxQueuedLogs` counts lines.
    for (const entry of entries) this.queue({ type: 'log', entries: [entry] });
  }

  /** Sends when connected, else keeps it (bounded: the oldest are dropped). */
  private queue(message: SdkMessage): void {
    if (this.sendNow(message)) return;
    this.outbox.push(message);
    const limit = this.options.maxQueuedLogs ?? 1000;
    if (this.outbox.length > limit) this.outbox.splice(0, this.outbox.length - limit);
  }

  private flush(): void {
    for (const id of this.unsentStatuses) this.send({ type: 'status', id, value: this.statuses.get(id) ?? null });
    this.unsentStatuses.clear();
    const logs = this.outbox.filter((m) => m.type === 'log').flatMap((m) => (m.type === 'log' ? m.entries : []));
    for (let i = 0; i < logs.length; i += LOG_BATCH_MAX) this.send({ type: 'log', entries: logs.slice(i, i + LOG_BATCH_MAX) });
    for (const message of this.outbox) if (message.type !== 'log') this.send(message);
    this.outbox.length = 0;
  }

  private sendNow(message: SdkMessage): boolean {
    if (!this.isConnected) return false;
    this.send(message);
    return true;
  }

  private send(message: SdkMessage): void {
    if (message.type !== 'log') this.sendPendingLogs();
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
