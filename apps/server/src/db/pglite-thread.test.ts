import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, PgliteThread } from './pglite-thread.js';

describe('PGlite in its own thread', () => {
  let dir: string;
  let db: PgliteThread;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-thread-'));
    db = await PgliteThread.start(path.join(dir, 'pgdata'));
    await db.exec('create table items (id int primary key, name text not null, at timestamptz not null default now())');
  }, 60_000);

  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers queries with their parameters, and drizzle’s options (rows as arrays, time as text)', async () => {
    await db.query('insert into items (id, name, at) values ($1, $2, $3)', [1, 'first', '2026-11-27T10:00:00Z']);
    const asObjects = await db.query<{ id: number; name: string }>('select id, name from items where id = $1', [1]);
    expect(asObjects.rows).toEqual([{ id: 1, name: 'first' }]);
    const passThrough = (text: string) => text;
    const asArrays = await db.query('select id, at from items where id = $1', [1], { rowMode: 'array', parsers: { [types.TIMESTAMPTZ]: passThrough } });
    expect(asArrays.rows).toEqual([[1, '2026-11-27 10:00:00+00']]);
    expect(asArrays.fields.map((field) => field.name)).toEqual(['id', 'at']);
  });

  it('keeps a small page cache: pages past it stay in the files, out of the server process', async () => {
    const { rows } = await db.query<{ shared_buffers: string }>('show shared_buffers');
    expect(rows).toEqual([{ shared_buffers: '16MB' }]);
  });

  it('runs its thread with a small young generation, so short-lived query objects do not hold 32 MiB resident', () => {
    expect(db.resourceLimits().maxYoungGenerationSizeMb).toBe(12);
  });

  it('refuses options that cannot cross threads instead of dropping them', () => {
    expect(() => db.query('select 1', [], { parsers: { [types.INT4]: (text) => Number(text) * 2 } })).toThrow(/not a pass-through/);
  });

  it('hands PostgreSQL errors back with their fields', async () => {
    await db.query('insert into items (id, name) values (2, $1)', ['two']);
    const error = await db.query('insert into items (id, name) values (2, $1)', ['again']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey', table: 'items' });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values (10, $1)', ['kept']);
      await tx.query('insert into items (id, name) values (11, $1)', ['kept too']);
    });
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values (12, $1)', ['gone']);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const { rows } = await db.query<{ id: number }>('select id from items where id >= 10 order by id');
    expect(rows.map((row) => row.id)).toEqual([10, 11]);
  });

  it('keeps a transaction’s database to itself: a query from outside waits for its end', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values (20, $1)', ['inside']);
      await held;
    });
    // Sent while the transaction is open: it must see the row, committed, and not before.
    const outside = db.query<{ n: number }>('select count(*)::int as n from items where id = 20');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect((await outside).rows[0]?.n).toBe(1);
  });

  it('runs a long query beside this thread, which stays free meanwhile', async () => {
    let turns = 0;
    let done = false;
    const query = db.query<{ n: number }>('select count(*)::int as n from generate_series(1, 3000000) s where s % 7 = 0').finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect((await query).rows[0]?.n).toBe(428_571);
    // In this thread, PGlite would hold the event loop for the whole scan: a handful of turns.
    expect(turns).toBeGreaterThan(100);
  });

  it('fails every later query with why once its thread has stopped', async () => {
    const other = await PgliteThread.start(path.join(dir, 'other'));
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/embedded database's thread stopped/);
  }, 60_000);

  it('makes a new database in a process of its own, so initdb’s memory does not stay in the server', async () => {
    // A process that starts the thread on an empty directory and reports its resident memory.
    // initdb leaves about 600 MiB more resident in the process that ran it: with the database
    // made in that process, it read 754 MiB; made in a process of its own, 259 MiB.
    const script = `const { PgliteThread } = await import(${JSON.stringify(new URL('./pglite-thread.ts', import.meta.url).href)});
      const db = await PgliteThread.start(process.argv[1]);
      const { rows } = await db.query('select count(*)::int as n from pg_class');
      process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss, tables: rows[0].n }));
      await db.close();`;
    const target = path.join(dir, 'made');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, target], { encoding: 'utf8' });
    const { rss, tables } = JSON.parse(stdout) as { rss: number; tables: number };
    expect(tables).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(target, 'PG_VERSION'))).toBe(true);
    expect(rss / 2 ** 20).toBeLessThan(450);
  }, 120_000);

  it('says why a database could not be made', async () => {
    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, '');
    await expect(createDatabase(path.join(blocked, 'pgdata'))).rejects.toThrow(/The embedded database could not be created in .*a-file.*: \S/);
  }, 60_000);
});
