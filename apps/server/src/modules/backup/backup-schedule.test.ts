import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { isCronExpression, nextCronTime } from '../../lib/cron.js';
import { createLocalFileStore } from '../../lib/file-store.js';
import { createOrganization } from '../../test/factories.js';
import { createTestDatabase } from '../../test/test-server.js';
import { verifyArchive } from './backup.service.js';
import { runOnce, scheduledBackupName } from './backup-schedule.js';

let database: Database;
let drop: () => Promise<void>;
let dataDir: string;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-backup-schedule-'));
  database = await openDatabase({ databaseUrl: created.url, dataDir, holder: 'test' });
});
afterAll(async () => {
  await database.close();
  await drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('scheduled backups', () => {
  it('names backups by their UTC time, so that names sort by age', () => {
    expect(scheduledBackupName(new Date('2026-11-26T03:00:05.123Z'))).toBe('plinth-20261126T030005Z.tar.gz');
  });

  it('reads cron expressions in the configured time zone', () => {
    expect(isCronExpression('0 3 * * *')).toBe(true);
    expect(isCronExpression('every night')).toBe(false);
    // 03:00 in Paris is 02:00 UTC in winter.
    expect(nextCronTime('0 3 * * *', new Date('2026-11-26T12:00:00Z'), 'Europe/Paris').toISOString()).toBe('2026-11-27T02:00:00.000Z');
  });

  it('writes a complete archive and keeps only the newest BACKUP_KEEP', async () => {
    const folder = path.join(dataDir, 'backups');
    fs.mkdirSync(folder, { recursive: true });
    for (const day of ['20261120', '20261121', '20261122']) fs.writeFileSync(path.join(folder, `plinth-${day}T030000Z.tar.gz`), 'old');
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a backup');
    await createOrganization(database.db, 'Harbor Museum');
    const source = { db: database.db, kind: database.kind, files: createLocalFileStore(path.join(dataDir, 'store')), config: { dataDir, secretKey: undefined } };
    const at = new Date('2026-11-26T03:00:00Z');
    await runOnce({ source, config: { BACKUP_KEEP: 2, BACKUP_CRON: '0 3 * * *', BACKUP_DIR: folder, TIME_ZONE: 'UTC', dataDir }, clock: { now: () => at }, logger: pino({ level: 'silent' }) }, folder);
    expect(fs.readdirSync(folder).sort()).toEqual(['notes.txt', 'plinth-20261122T030000Z.tar.gz', 'plinth-20261126T030000Z.tar.gz']);
    const manifest = await verifyArchive(path.join(folder, 'plinth-20261126T030000Z.tar.gz'));
    expect(manifest.database.kind).toBe('postgres');
    expect(manifest.chunks).toContainEqual(expect.objectContaining({ table: 'organizations', rows: 1 }));
    expect(manifest.secretKey).toBeNull();
  });
});
