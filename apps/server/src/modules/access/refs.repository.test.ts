import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExhibit, createHardware, createOrganization, createSite } from '../../test/factories.js';
import { BOTH_DATABASES, type TestDatabase } from '../../test/databases.js';
import { findExhibitRefs, findHardwareRefs } from './refs.repository.js';

/** Where exhibits and hardware sit, for any number of ids: a console re-checks every board it watches in one query. */
describe.each(BOTH_DATABASES)('the refs of exhibits and hardware on %s', (_name, open) => {
  let database: TestDatabase;
  let organizationId: string;
  let siteId: string;
  let exhibitId: string;
  let hardwareId: string;

  beforeAll(async () => {
    database = await open();
    organizationId = (await createOrganization(database.db)).id;
    siteId = (await createSite(database.db, organizationId)).id;
    exhibitId = (await createExhibit(database.db, siteId)).id;
    hardwareId = (await createHardware(database.db, siteId, 'Board', { exhibitId })).id;
  }, 120_000);
  afterAll(async () => {
    await database?.stop();
  });

  it('answers the known ids among more than a statement may have parameters (65,535), and leaves the others out', async () => {
    const unknown = Array.from({ length: 70_000 }, () => randomUUID());
    const ids = [...unknown.slice(0, 35_000), exhibitId, hardwareId, ...unknown.slice(35_000)];
    expect(await findExhibitRefs(database.db, ids)).toEqual([{ id: exhibitId, siteId, organizationId }]);
    expect(await findHardwareRefs(database.db, ids)).toEqual([{ id: hardwareId, siteId, organizationId, exhibitId }]);
    expect(await findHardwareRefs(database.db, [hardwareId])).toEqual([{ id: hardwareId, siteId, organizationId, exhibitId }]);
    expect(await findHardwareRefs(database.db, [])).toEqual([]);
  });

  it('refuses a malformed id, as a parameter of its own would', async () => {
    await expect(findHardwareRefs(database.db, [hardwareId, 'not-an-id'])).rejects.toThrow();
  });
});
