import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/**
 * The database side of backup and restore, in plain SQL over the `public` schema so that it reads
 * and writes PGlite and PostgreSQL alike, and covers every table the migrations make (the ones of
 * later features too) without a list to keep.
 */

/** One table as it is dumped and restored. */
export type TableInfo = {
  name: string;
  /** Partitioned by day on "at" (log_entries, report_events): its days' partitions are made before rows go in. */
  isPartitioned: boolean;
  /** It references itself (exhibits: leader_id), so its rows go in with one statement. */
  isSelfReferencing: boolean;
};

/** The latest applied migration, which a restore must match. */
export async function latestMigration(db: Db): Promise<{ migration: string; migrations: number }> {
  const [row] = rowsOf<{ hash: string | null; n: number }>(
    await db.execute(sql`select (select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1) as hash, count(*)::int as n from drizzle.__drizzle_migrations`),
  );
  return { migration: row?.hash ?? '', migrations: row?.n ?? 0 };
}

/**
 * The tables of `public` (partitions are read through their parent), ordered so that every table
 * comes after the tables it references.
 */
export async function listTables(db: Db): Promise<TableInfo[]> {
  const tables = rowsOf<{ name: string; kind: string }>(
    await db.execute(sql`
      select c.relname as name, c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`),
  );
  const references = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select distinct c.relname as child, p.relname as parent
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public'`),
  );
  const parentsOf = new Map<string, Set<string>>();
  for (const { child, parent } of references) {
    if (!parentsOf.has(child)) parentsOf.set(child, new Set());
    parentsOf.get(child)!.add(parent);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parentsOf.get(name) ?? []) if (parent !== name) visit(parent, path);
    path.delete(name);
    placed.add(name);
    const table = tables.find((t) => t.name === name);
    if (table) ordered.push({ name, isPartitioned: table.kind === 'p', isSelfReferencing: parentsOf.get(name)?.has(name) ?? false });
  };
  for (const { name } of tables) visit(name, new Set());
  return ordered;
}

/**
 * Reads `tables` in one consistent snapshot (a repeatable-read, read-only transaction: every table
 * as it was at the same instant, while the server keeps writing), `batch` rows at a time as JSON
 * text, handing each batch to `onRows`. `inSnapshot` runs in the same snapshot before the rows
 * (the keys of the stored files).
 */
export async function readSnapshot<T>(
  db: Db,
  input: { tables: TableInfo[]; batch: number; inSnapshot: (tx: Db) => Promise<T> },
  onRows: (table: TableInfo, rows: string[]) => Promise<void>,
): Promise<T> {
  return db.transaction(
    async (tx) => {
      const seen = await input.inSnapshot(tx as unknown as Db);
      for (const table of input.tables) {
        await tx.execute(sql`declare plinth_backup no scroll cursor for select row_to_json(t)::text as r from ${sql.identifier(table.name)} t`);
        for (;;) {
          const rows = rowsOf<{ r: string }>(await tx.execute(sql.raw(`fetch ${input.batch} from plinth_backup`))).map((row) => row.r);
          if (rows.length === 0) break;
          await onRows(table, rows);
          if (rows.length < input.batch) break;
        }
        await tx.execute(sql`close plinth_backup`);
      }
      return seen;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The store keys of every stored file the snapshot knows: exhibit files, and firmware by board and name. */
export async function listStoredObjects(tx: Db): Promise<{ objects: { key: string; contentType: string }[]; firmware: { hardwareId: string; fileName: string }[] }> {
  const objects = rowsOf<{ key: string; contentType: string }>(
    await tx.execute(sql`select object_key as "key", content_type as "contentType" from exhibit_files order by object_key`),
  );
  const firmware = rowsOf<{ hardwareId: string; fileName: string }>(
    await tx.execute(sql`select hardware_id::text as "hardwareId", file_name as "fileName" from firmware order by hardware_id, file_name`),
  );
  return { objects, firmware };
}

/** How many people the database holds: a restore refuses a target that already has some. */
export async function countUsers(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users`));
  return row?.n ?? 0;
}

export type RestoreWriter = {
  /** Inserts rows (JSON text, as dumped) into `table`, making the day partitions they need first. */
  insert: (table: TableInfo, rows: string[]) => Promise<void>;
};

/**
 * Replaces everything in `tables` in one transaction: empties them, lets `fill` insert the
 * archive's rows, then moves every serial sequence past the highest id. A failure leaves the
 * database as it was.
 */
export async function replaceAll(db: Db, tables: TableInfo[], fill: (writer: RestoreWriter) => Promise<void>): Promise<void> {
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    if (tables.length > 0) await tx.execute(sql`truncate ${sql.join(tables.map((t) => sql.identifier(t.name)), sql`, `)} restart identity cascade`);
    await fill({
      insert: async (table, rows) => {
        const json = `[${rows.join(',')}]`;
        const target = sql.identifier(table.name);
        if (table.isPartitioned) {
          await tx.execute(sql`
            select plinth_day_partition(${table.name}, d)
            from (select distinct (x.at at time zone 'UTC')::date as d from json_populate_recordset(null::${target}, ${json}::json) x) days`);
        }
        await tx.execute(sql`insert into ${target} overriding system value select * from json_populate_recordset(null::${target}, ${json}::json)`);
      },
    });
    const serials = rowsOf<{ table: string; column: string }>(
      await tx.execute(sql`
        select c.table_name as "table", c.column_name as "column" from information_schema.columns c
        join pg_class k on k.relname = c.table_name join pg_namespace n on n.oid = k.relnamespace and n.nspname = c.table_schema
        where c.table_schema = 'public' and c.column_default like 'nextval(%' and not k.relispartition`),
    );
    for (const { table, column } of serials) {
      await tx.execute(sql`
        select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`);
    }
  });
}
