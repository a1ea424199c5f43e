import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { TransactionRollbackError } from 'drizzle-orm/errors';
import type { SettingValue } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitFiles, exhibits, exhibitSettingListItems, exhibitSettingLists, exhibitSettings, sites } from '../../db/schema.js';
import { findListItem, updateListItem, updateSettingValue } from '../exhibit-runtime/exhibit-settings.repository.js';

/**
 * The exhibit_files rows (one per name; the bytes sit in the file store under `objectKey`) and
 * the FileSelection settings that name them. Every write that changes which object a name
 * points to runs in one transaction, under a per-exhibit advisory lock, so that two uploads or an
 * upload and a delete of the same exhibit never lose track of an object.
 */

export type FileRow = typeof exhibitFiles.$inferSelect;

/** The exhibit whose files are asked for: its site and organization, and the leader whose files it uses. */
export type FileOwnerRow = { id: string; siteId: string; organizationId: string; leaderId: string | null; online: boolean };

export async function findFileOwner(db: Db, exhibitId: string): Promise<FileOwnerRow | undefined> {
  const [row] = await db
    .select({ id: exhibits.id, siteId: exhibits.siteId, organizationId: sites.organizationId, leaderId: exhibits.leaderId, online: exhibits.online })
    .from(exhibits)
    .innerJoin(sites, eq(sites.id, exhibits.siteId))
    .where(eq(exhibits.id, exhibitId));
  return row;
}

/** The exhibits that use this exhibit's files (its followers), with their online flag. */
export async function listFileFollowers(db: Db, exhibitId: string): Promise<{ id: string; online: boolean }[]> {
  return db.select({ id: exhibits.id, online: exhibits.online }).from(exhibits).where(eq(exhibits.leaderId, exhibitId));
}

/** The exhibit's files by name. */
export async function listFileRows(db: Db, exhibitId: string): Promise<FileRow[]> {
  return db.select().from(exhibitFiles).where(eq(exhibitFiles.exhibitId, exhibitId)).orderBy(asc(exhibitFiles.name));
}

export async function findFileRow(db: Db, exhibitId: string, name: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(exhibitFiles)
    .where(and(eq(exhibitFiles.exhibitId, exhibitId), eq(exhibitFiles.name, name)));
  return row;
}

/** Serialises the writes of one exhibit's files until the transaction ends (every node: it is PostgreSQL's lock). */
async function lockExhibitFiles(tx: Db, exhibitId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exhibit-files:${exhibitId}`}))`);
}

/** One stored upload: the object already in the store under `objectKey`. */
export type NewFile = { name: string; objectKey: string; size: number; sha256: string; contentType: string; uploadedBy: string | null };

/**
 * Points each name at its new object in one transaction (a new row, or the existing row of that
 * name updated). Answers the rows and the object keys they no longer point to.
 */
export async function storeFileRows(db: Db, exhibitId: string, files: NewFile[]): Promise<{ rows: FileRow[]; replacedKeys: string[] }> {
  return db.transaction(async (tx) => {
    await lockExhibitFiles(tx, exhibitId);
    const names = files.map((f) => f.name);
    const previous = await tx
      .select({ objectKey: exhibitFiles.objectKey })
      .from(exhibitFiles)
      .where(and(eq(exhibitFiles.exhibitId, exhibitId), inArray(exhibitFiles.name, names)));
    const now = new Date();
    const rows = await tx
      .insert(exhibitFiles)
      .values(files.map((f) => ({ ...f, exhibitId, updatedAt: now })))
      .onConflictDoUpdate({
        target: [exhibitFiles.exhibitId, exhibitFiles.name],
        set: {
          objectKey: sql`excluded.object_key`,
          size: sql`excluded.size`,
          sha256: sql`excluded.sha256`,
          contentType: sql`excluded.content_type`,
          uploadedBy: sql`excluded.uploaded_by`,
          updatedAt: now,
        },
      })
      .returning();
    return { rows, replacedKeys: previous.map((p) => p.objectKey) };
  });
}

/** A FileSelection setting (plain, or in a list item when `listName` is set) whose value names a file. */
export type FileSettingUse = {
  exhibitId: string;
  exhibitName: string;
  settingId: string;
  display: string;
  /** The setting's manifest definition (for its default). */
  definition: unknown;
  /** The list's row id and the item's name, for a setting of a list item. */
  listId: string | null;
  listName: string | null;
};

/** The FileSelection settings of these exhibits (plain ones and list items' ones) whose value is `fileName`. */
export async function findFileSettingUses(db: Db, where: { exhibitIds: string[]; fileName: string }): Promise<FileSettingUse[]> {
  if (!where.exhibitIds.length) return [];
  const named = sql`to_jsonb(${where.fileName}::text)`;
  const plain = await db
    .select({ exhibitId: exhibitSettings.exhibitId, exhibitName: exhibits.name, settingId: exhibitSettings.manifestId, display: exhibitSettings.display, definition: exhibitSettings.definition })
    .from(exhibitSettings)
    .innerJoin(exhibits, eq(exhibits.id, exhibitSettings.exhibitId))
    .where(
      and(
        inArray(exhibitSettings.exhibitId, where.exhibitIds),
        eq(exhibitSettings.type, 'FileSelection'),
        eq(exhibitSettings.listManifestId, ''),
        sql`${exhibitSettings.value} = ${named}`,
      ),
    );
  const inLists = await db
    .select({
      exhibitId: exhibitSettingLists.exhibitId,
      exhibitName: exhibits.name,
      settingId: exhibitSettings.manifestId,
      display: exhibitSettings.display,
      definition: exhibitSettings.definition,
      listId: exhibitSettingLists.id,
      listName: exhibitSettingListItems.listName,
    })
    .from(exhibitSettingListItems)
    .innerJoin(exhibitSettingLists, eq(exhibitSettingLists.id, exhibitSettingListItems.listId))
    .innerJoin(
      exhibitSettings,
      and(eq(exhibitSettings.exhibitId, exhibitSettingLists.exhibitId), eq(exhibitSettings.listManifestId, exhibitSettingLists.manifestId)),
    )
    .innerJoin(exhibits, eq(exhibits.id, exhibitSettingLists.exhibitId))
    .where(
      and(
        inArray(exhibitSettingLists.exhibitId, where.exhibitIds),
        eq(exhibitSettings.type, 'FileSelection'),
        sql`${exhibitSettingListItems.values} -> ${exhibitSettings.manifestId} = ${named}`,
      ),
    )
    .orderBy(asc(exhibitSettingListItems.order));
  return [...plain.map((p) => ({ ...p, listId: null, listName: null })), ...inLists];
}

/** What a delete changed: the setting versions the exhibits acknowledge and the lists whose items changed. */
export type FileDeletion = {
  objectKey: string;
  /** The settings reset with the file. */
  uses: FileSettingUse[];
  settings: { exhibitId: string; settingId: string; value: SettingValue; version: number }[];
  lists: { exhibitId: string; listId: string }[];
};

/** A delete: the file, the exhibits whose settings may name it, and what a setting is reset to. */
export type FileDelete = {
  exhibitId: string;
  fileName: string;
  exhibitIds: string[];
  /** False: any setting naming the file stops the delete (nothing changes, the uses are answered). */
  resetUses: boolean;
  resetValue: (use: FileSettingUse) => SettingValue;
  /** More writes of the same delete, made in its transaction (the scheduled events that name the file lose that change). */
  alsoInTransaction?: (tx: Db) => Promise<void>;
};

/**
 * Deletes the file's row and resets the settings of `exhibitIds` that name it, in one
 * transaction, reading those settings inside it (a value saved meanwhile is seen). Answers null
 * when the file is not there, `{ blocked }` when settings name it and `resetUses` is false.
 */
export async function deleteFileWithResets(db: Db, deletion: FileDelete): Promise<FileDeletion | { blocked: FileSettingUse[] } | null> {
  let blocked: FileSettingUse[] = [];
  try {
    return await db.transaction(async (tx) => {
      await lockExhibitFiles(tx, deletion.exhibitId);
      const [row] = await tx
        .delete(exhibitFiles)
        .where(and(eq(exhibitFiles.exhibitId, deletion.exhibitId), eq(exhibitFiles.name, deletion.fileName)))
        .returning({ objectKey: exhibitFiles.objectKey });
      if (!row) return null;
      const uses = await findFileSettingUses(tx, { exhibitIds: deletion.exhibitIds, fileName: deletion.fileName });
      if (uses.length && !deletion.resetUses) {
        blocked = uses;
        tx.rollback();
      }
      const changed = await resetSettings(tx, { fileName: deletion.fileName, uses, resetValue: deletion.resetValue });
      await deletion.alsoInTransaction?.(tx);
      return { objectKey: row.objectKey, uses, ...changed };
    });
  } catch (error) {
    if (error instanceof TransactionRollbackError) return { blocked };
    throw error;
  }
}

/** Resets plain settings (a new version each) and list items (one new version per item) to their reset values. */
async function resetSettings(
  tx: Db,
  reset: { fileName: string; uses: FileSettingUse[]; resetValue: (use: FileSettingUse) => SettingValue },
): Promise<Pick<FileDeletion, 'settings' | 'lists'>> {
  const changed: Pick<FileDeletion, 'settings' | 'lists'> = { settings: [], lists: [] };
  for (const use of reset.uses.filter((u) => u.listId === null)) {
    const value = reset.resetValue(use);
    const row = await updateSettingValue(tx, use.exhibitId, { manifestId: use.settingId, value });
    if (row) changed.settings.push({ exhibitId: use.exhibitId, settingId: use.settingId, value, version: row.version });
  }
  const items = new Map<string, FileSettingUse[]>();
  for (const use of reset.uses.filter((u) => u.listId !== null)) {
    const key = JSON.stringify([use.listId, use.listName]);
    items.set(key, [...(items.get(key) ?? []), use]);
  }
  for (const itemUses of items.values()) {
    const { listId, listName, exhibitId } = itemUses[0]!;
    const item = await findListItem(tx, listId!, listName!);
    if (!item) continue;
    const values = { ...item.values };
    for (const use of itemUses) if (values[use.settingId] === reset.fileName) values[use.settingId] = reset.resetValue(use);
    await updateListItem(tx, item.id, { values, version: item.version + 1 });
    if (!changed.lists.some((l) => l.listId === listId)) changed.lists.push({ exhibitId, listId: listId! });
  }
  return changed;
}
