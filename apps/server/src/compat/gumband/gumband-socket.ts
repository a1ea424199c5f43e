import type { WebSocket } from 'ws';
import type { ExhibitManifest, ExhibitSetting, GatewayMessage, GatewayMessageOf, SdkMessage, SettingList } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { ExhibitCodec } from '../../devices/ports.js';
import { SERVER_ITEM_ACCESS } from '../../modules/access/item-access.js';
import { pushExhibitFiles } from '../../modules/content/files.service.js';
import { acknowledge, type Acknowledgement } from '../../modules/exhibit-runtime/exhibit-ingest.service.js';
import { getManifest, pushSync } from '../../modules/exhibit-runtime/exhibit-runtime.service.js';
import { SocketFrame } from './gumband-contract.js';
import { gumbandNames, gumbandValue } from './gumband.presenter.js';

/** How often the Gumband socket is pinged: the SDK drops a socket not pinged for 11 s (Gumband pings every 10 s). */
export const GUMBAND_PING_MS = 5_000;

const frame = (action: string, data: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ action, ...extra, data });

/**
 * The Gumband socket (`{action, data}` frames) translated for the exhibit gateway, one per socket:
 * HANDSHAKE is answered at once, SUBSCRIBE becomes the SDK's `auth` with the cookie's credential
 * (the gateway checks it), and what the gateway sends becomes Gumband's pushes. Gumband exhibits
 * do not acknowledge settings: a setting written to the socket counts as applied.
 */
export class GumbandCodec implements ExhibitCodec {
  private jwt: string | null = null;
  private exhibitId: string | null = null;
  /** Plinth setting and list ids → Gumband names (`group/child`), read again after every sync. */
  private names = new Map<string, string>();
  private delivering: Promise<void> = Promise.resolve();
  /** The files the exhibit was last told of, by name (content stamp); null before the first list. */
  private files: Map<string, string> | null = null;

  constructor(
    private readonly deps: AppDeps,
    private readonly socket: WebSocket,
  ) {}

  decode(raw: string): { messages: SdkMessage[]; replies: string[] } {
    let parsed: ReturnType<typeof SocketFrame.safeParse>;
    try {
      parsed = SocketFrame.safeParse(JSON.parse(raw));
    } catch {
      return { messages: [], replies: [] };
    }
    if (!parsed.success) return { messages: [], replies: [] };
    if (parsed.data.action === 'HANDSHAKE') {
      this.jwt = parsed.data.data.jwt;
      return { messages: [], replies: [frame('HANDSHAKE_SUCCESSFUL', {})] };
    }
    if (!this.jwt || this.exhibitId) return { messages: [], replies: [] };
    this.exhibitId = parsed.data.data.exhibitId;
    return { messages: [{ type: 'auth', exhibitId: this.exhibitId, token: this.jwt }], replies: [] };
  }

  encode(message: GatewayMessage): string[] {
    switch (message.type) {
      case 'auth.ok':
        // Plinth's own SDK sends its manifest now and gets every value back; a Gumband exhibit
        // posts its manifest over REST (only when it starts), so the values are pushed here.
        this.later(async () => {
          await pushSync(this.deps, message.exhibitId);
          pushExhibitFiles(this.deps, message.exhibitId);
        });
        return [frame('EXHIBIT_ONLINE', { exhibitId: message.exhibitId })];
      case 'control.fired':
        return [frame('CONTROL_RECEIVED', { controlId: message.controlId, itemId: message.itemId ? `${message.controlId}/${message.itemId}` : message.controlId })];
      case 'setting.changed':
        this.acknowledge({ settings: [{ id: message.settingId, version: message.version }], listItems: [] });
        return [this.settingFrame(message.settingId, message.value)];
      case 'exhibit.synced':
        // One after another: a second sync (the manifest's, after the connection's) finds the first one's acknowledgements.
        this.later(() => {
          const run = this.delivering.then(() => this.deliverPending());
          this.delivering = run.catch(() => undefined);
          return run;
        });
        return [];
      case 'settingList.changed':
        this.acknowledge({ settings: [], listItems: message.items.map((i) => ({ listId: message.listId, listName: i.listName, version: i.version })) });
        return [frame('SETTING_LIST_RECEIVED', presentListChange(message, this.names.get(message.listId) ?? message.listId))];
      case 'opMode.changed':
        return [frame('OP_MODE_RECEIVED', { mode: message.opMode === 'On' })];
      case 'files.changed':
        return this.fileFrames(message);
      default:
        // manifest answers, errors and pongs have no Gumband push.
        return [];
    }
  }

  /**
   * The gateway sends the whole file list (on connect and after every change); Gumband pushes
   * FILE_UPLOADED and FILE_DELETED by name. The first list of a connection is what the SDK
   * syncs when it starts (over REST), so only later differences are pushed. Organizational files
   * keep their list when the content manager cannot be read.
   */
  private fileFrames(message: GatewayMessageOf<'files.changed'>): string[] {
    const current = new Map(message.files.map((f) => [f.name, `${f.sha256 ?? ''}:${f.size}:${f.updatedAt}`]));
    const previous = this.files;
    if (message.organizationalUnavailable && previous) {
      for (const [name, stamp] of previous) if (name.startsWith('[ORG] ') && !current.has(name)) current.set(name, stamp);
    }
    this.files = current;
    if (!previous) return [];
    const uploaded = [...current].filter(([name, stamp]) => previous.get(name) !== stamp).map(([name]) => frame('FILE_UPLOADED', { fileName: name }));
    const deleted = [...previous.keys()].filter((name) => !current.has(name)).map((name) => frame('FILE_DELETED', { fileName: name }));
    return [...uploaded, ...deleted];
  }

  private settingFrame(settingId: string, value: unknown): string {
    const manifestId = this.names.get(settingId) ?? settingId;
    return frame('SETTING_RECEIVED', { settingId, manifestId, settingValue: gumbandValue(value) }, { realtime: true });
  }

  /**
   * After a (re)connect or a manifest: the names are read again, and the values saved while the
   * exhibit was away (saved versions it has not applied) are delivered as SETTING_RECEIVED and
   * SETTING_LIST_RECEIVED. A setting's version 1 is the manifest's default, which the exhibit
   * reads itself.
   */
  private async deliverPending(): Promise<void> {
    if (!this.exhibitId) return;
    const response = await getManifest(this.deps, this.exhibitId, SERVER_ITEM_ACCESS);
    this.names = gumbandNames(response);
    const pending = collectSettings(response.manifest).filter((s) => s.appliedVersion < s.version);
    for (const setting of pending.filter((s) => s.version > 1)) this.send(this.settingFrame(setting.manifestId, setting.value));
    const listItems: Acknowledgement['listItems'] = [];
    for (const list of collectLists(response.manifest)) {
      const items = list.settinglistitems.filter((i) => i.appliedVersion < i.version);
      listItems.push(...items.map((i) => ({ listId: list.manifestId, listName: i.listName, version: i.version })));
      // Gumband manifests declare no default items: every pending item was made or changed in Plinth.
      if (items.length) this.send(frame('SETTING_LIST_RECEIVED', presentListChange(listMessage(list), this.names.get(list.manifestId) ?? list.manifestId)));
    }
    if (pending.length || listItems.length) {
      await acknowledge(this.deps, this.exhibitId, { settings: pending.map((s) => ({ id: s.manifestId, version: s.version })), listItems });
    }
  }

  private send(text: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(text);
  }

  private acknowledge(ack: Acknowledgement): void {
    const exhibitId = this.exhibitId;
    if (exhibitId) this.later(() => acknowledge(this.deps, exhibitId, ack));
  }

  private later(work: () => Promise<void>): void {
    this.deps.background.run('Gumband compatibility socket', work);
  }
}

type SettingsHolder = Pick<ExhibitManifest, 'settings' | 'strapiContent' | 'settingLists'> & { settingGroups: SettingsHolder[] };

function collectSettings(holder: SettingsHolder): ExhibitSetting[] {
  return [...holder.settings, ...holder.strapiContent, ...holder.settingGroups.flatMap(collectSettings)];
}

function collectLists(holder: SettingsHolder): SettingList[] {
  return [...holder.settingLists, ...holder.settingGroups.flatMap(collectLists)];
}

/** A list of the manifest as the gateway would push it. */
function listMessage(list: SettingList): GatewayMessageOf<'settingList.changed'> {
  return {
    type: 'settingList.changed',
    listId: list.manifestId,
    items: list.settinglistitems.map((item) => ({
      listName: item.listName,
      order: item.order,
      version: item.version,
      values: Object.fromEntries(item.items.map((setting) => [setting.manifestId, setting.value])),
    })),
  };
}

function presentListChange(message: GatewayMessageOf<'settingList.changed'>, manifestId: string) {
  return {
    id: message.listId,
    manifestId,
    settinglistitems: message.items.map((item) => ({
      listName: item.listName,
      order: item.order,
      values: Object.fromEntries(Object.entries(item.values).map(([key, value]) => [key, gumbandValue(value)])),
    })),
  };
}
