import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server.js';
import { pgliteTestConfig } from '../../test/databases.js';
import { createExhibit, createOrganization, createSite } from '../../test/factories.js';
import { TestClient } from '../../test/test-client.js';
import { createUser } from '../auth/users.service.js';
import { CSV_CHUNK_ROWS } from './logging.service.js';
import { runLogRetention } from './log-retention.js';

/** The same store on the embedded database: partitions, the batched INSERT, keyset CSV, report buckets, retention. */

let dataDir: string;
let server: RunningServer;
let client: TestClient;
let exhibitId: string;
let t0: number;
const LINES = CSV_CHUNK_ROWS + 10;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-logs-'));
  server = await startServer(pgliteTestConfig(dataDir));
  await createUser(server.deps, { email: 'owner@example.com', password: 'Own3rPassword', firstName: 'Olga', isPlatformAdmin: true });
  client = new TestClient(server.url);
  expect((await client.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' })).status).toBe(200);
  const site = await createSite(server.deps.db, (await createOrganization(server.deps.db)).id);
  exhibitId = (await createExhibit(server.deps.db, site.id)).id;
  t0 = Date.now() - 2 * 86_400_000;
  for (let i = 0; i < LINES; i++) {
    // Two UTC days, so the batch needs two partitions.
    server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: i % 2 ? 'warn' : 'info', eventType: 'info', message: `line ${i}`, at: new Date(t0 + i * 20_000) });
  }
  server.deps.logs.event({ exhibitId, name: 'visit', data: 'kids', at: new Date(t0) });
  await server.deps.logs.flush();
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('logs on the embedded database (PGlite)', () => {
  it('pages, streams the CSV by keyset, reports and drops old days', { timeout: 60_000 }, async () => {
    const range = `start=${t0}&end=${Date.now()}`;
    const page = await client.get(`/logging/exhibit?exhibitId=${exhibitId}&${range}&levels=warn`);
    expect(page.status).toBe(200);
    expect(page.body.numLogs).toBe(Math.floor(LINES / 2));
    expect(page.body.logs[0].message).toBe(`line ${LINES - 1}`);

    const csv = await client.request('GET', `/logging/exhibit/csv?id=${exhibitId}&${range}`, undefined, { accept: 'text/csv' });
    const rows = (csv.body as string).split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(LINES);
    expect(rows.map((row) => row.split(',')[1])).toEqual(Array.from({ length: LINES }, (_, i) => `line ${i}`));

    const report = await client.get(`/reporting/exhibit/report?exhibitId=${exhibitId}&start=${t0}&end=${t0 + 86_400_000}&interval=86400&filter=value&timeZone=Europe/Amsterdam`);
    expect(report.status).toBe(200);
    expect(report.body.report.datasets).toEqual([{ label: 'kids', data: expect.arrayContaining([1]) }]);

    expect((await client.post('/logging/exhibit/live', { exhibitId, enabled: true })).body.enabled).toBe(true);
    expect(await runLogRetention(server.deps)).toEqual([]);
  });

  it('keeps the order lines were recorded in when they share a time (ids follow the batch)', async () => {
    const site = await createSite(server.deps.db, (await createOrganization(server.deps.db)).id);
    const sameTime = (await createExhibit(server.deps.db, site.id)).id;
    const at = new Date(Date.now() - 60_000);
    for (let i = 0; i < 30; i++) server.deps.logs.record({ source: 'exhibit', deviceId: sameTime, level: 'info', eventType: 'info', message: `same ${i}`, at });
    await server.deps.logs.flush();
    const page = await client.get(`/logging/exhibit?exhibitId=${sameTime}&start=${at.getTime() - 1}&end=${Date.now()}&logsPerPage=30`);
    expect(page.status).toBe(200);
    // Newest first: the last recorded comes first.
    expect(page.body.logs.map((log: { message: string }) => log.message)).toEqual(Array.from({ length: 30 }, (_, i) => `same ${29 - i}`));
  });
});
