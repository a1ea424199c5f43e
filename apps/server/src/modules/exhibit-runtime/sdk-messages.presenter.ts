import type { GatewayMessageOf, OpMode, SdkContentEntry, SdkListItem, SettingValue, StatusValue } from '@plinth/shared';
import type { ExhibitRuntimeRows, SettingListItemRow, SettingListRow, SettingRow } from './exhibit-runtime.repository.js';

/**
 * What the server sends an exhibit (packages/shared/src/sdk-protocol.ts, GatewayMessageSchema),
 * built from the stored rows: manifest ids are what the exhibit knows things by.
 */

/** One list as the exhibit receives it, items in their order. */
export function presentSdkList(list: SettingListRow, items: SettingListItemRow[]): GatewayMessageOf<'settingList.changed'> {
  return {
    type: 'settingList.changed',
    listId: list.manifestId,
    items: items
      .filter((i) => i.listId === list.id)
      .sort((a, b) => a.order - b.order)
      // Item values are stored as jsonb, written only after checkSettingValue.
      .map((i): SdkListItem => ({ listName: i.listName, order: i.order, version: i.version, values: i.values as SdkListItem['values'] })),
  };
}

/** Every current value, for the exhibit after each manifest ingest (so after every reconnect). */
export function presentSync(rows: ExhibitRuntimeRows, opMode: OpMode): GatewayMessageOf<'exhibit.synced'> {
  return {
    type: 'exhibit.synced',
    opMode,
    settings: rows.settings
      .filter((s) => s.listManifestId === '')
      .map((s) => ({ settingId: s.manifestId, value: s.value as SettingValue, version: s.version, ...contentOf(s) })),
    settingLists: rows.lists.map((l) => {
      const list = presentSdkList(l, rows.listItems);
      return { listId: list.listId, items: list.items };
    }),
    statuses: rows.statuses.map((s) => ({ statusId: s.manifestId, value: (s.value ?? null) as StatusValue })),
  };
}

/** A control fired in the console; `itemId` for a button of a group control. */
export function presentControlFired(control: { manifestId: string; itemId?: string | null }): GatewayMessageOf<'control.fired'> {
  return { type: 'control.fired', controlId: control.manifestId, ...(control.itemId ? { itemId: control.itemId } : {}) };
}

/** A StrapiContent setting's chosen entry (null when none), as `content`; nothing for the other types. */
function contentOf(setting: Pick<SettingRow, 'type' | 'content'>): { content?: SdkContentEntry | null } {
  // Stored only after it was read from the content manager with its id (strapi-content.service.ts).
  return setting.type === 'StrapiContent' ? { content: (setting.content ?? null) as SdkContentEntry | null } : {};
}

/**
 * A saved setting value with the version the exhibit acknowledges; a StrapiContent setting's
 * message carries its chosen entry (`content`, null when none).
 */
export function presentSettingMessage(setting: {
  manifestId: string;
  value: SettingValue;
  version: number;
  content?: Record<string, unknown> | null;
}): GatewayMessageOf<'setting.changed'> {
  const message: GatewayMessageOf<'setting.changed'> = { type: 'setting.changed', settingId: setting.manifestId, value: setting.value, version: setting.version };
  return setting.content === undefined ? message : { ...message, content: setting.content as SdkContentEntry | null };
}

/** A stored plain setting as the message a save sends (with a StrapiContent setting's entry). */
export function presentSettingRowMessage(setting: SettingRow): GatewayMessageOf<'setting.changed'> {
  return presentSettingMessage({ manifestId: setting.manifestId, value: setting.value as SettingValue, version: setting.version, ...contentOf(setting) });
}

export function presentOpModeMessage(opMode: OpMode): GatewayMessageOf<'opMode.changed'> {
  return { type: 'opMode.changed', opMode };
}
