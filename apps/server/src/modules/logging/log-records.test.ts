import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { openExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createHardware, createWorld } from '../../test/factories.js';
import { createToken, newBoard, waitUntil, waitUntilAnnounced } from '../../test/hardware-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** The server's own record of what happened to exhibits and boards, read back through the log routes. */

let server: TestServer;
let admin: TestClient;
let adminEmail: string;
let siteId: string;
const boards: SimulatedBoard[] = [];

const MANIFEST = {
  controls: [{ id: 'reload', display: 'Reload' }, { id: 'skip', display: 'Skip', enabledOpMode: 'On' }],
  settings: [{ id: 'kiosk_name', type: 'TextInput', default: 'Lobby' }],
};

beforeAll(async () => {
  server = await startTestServer();
  const signedUp = await server.signUp({ isPlatformAdmin: true });
  admin = signedUp.client;
  adminEmail = signedUp.email;
  siteId = (await createWorld(server)).siteA.id;
});
afterAll(async () => {
  for (const board of boards) await board.stop();
  await server?.stop();
});

/** The device's entries of the server's record (not its own lines), oldest first, as [eventType, level, message]. */
async function recordOf(kind: 'exhibit' | 'hardware', id: string): Promise<[string, string, string][]> {
  await server.deps.logs.flush();
  const key = kind === 'exhibit' ? 'exhibitId' : 'hardwareId';
  const res = await admin.get(`/logging/${kind}?${key}=${id}&start=${Date.now() - 3_600_000}&end=${Date.now() + 1000}&logsPerPage=500`);
  expect(res.status).toBe(200);
  return (res.body.logs as { eventType: string; level: string; message: string }[])
    .filter((l) => l.eventType !== l.level)
    .map((l): [string, string, string] => [l.eventType, l.level, l.message])
    .reverse();
}

describe('the record of an exhibit', () => {
  it('has online and offline, the manifest, op mode and controls by whom, settings saved and applied, tokens', async () => {
    const exhibitId = (await createExhibit(server.deps.db, siteId)).id;
    const sdk = await openExhibitSocket(server, admin, exhibitId);
    sdk.send({ type: 'manifest', requestId: '1', manifest: MANIFEST });
    await sdk.waitFor((m) => m.type === 'manifest.ok');
    const base = `/exhibit-management/exhibit/${exhibitId}`;
    expect((await admin.post(`${base}/opMode`, { opMode: 'On' })).status).toBe(200);
    expect((await admin.post(`${base}/control/reload`)).status).toBe(200);
    expect((await admin.post(`${base}/control/nothing`)).status).toBe(404);
    expect((await admin.post(`${base}/setting/kiosk_name`, { value: 'Hall' })).status).toBe(200);
    const change = await sdk.waitFor((m) => m.type === 'setting.changed');
    sdk.send({ type: 'ack', settings: [{ id: 'kiosk_name', version: (change as { version: number }).version }] });
    sdk.send({ type: 'opMode', value: 'Off' });
    await waitUntil(async () => (await recordOf('exhibit', exhibitId)).filter(([type]) => type === 'opMode').length === 2, 'the exhibit’s own op mode');
    expect((await admin.put(base, { manifestLocked: true })).status).toBe(200);
    sdk.send({ type: 'manifest', requestId: '2', manifest: { ...MANIFEST, controls: [] } });
    await sdk.waitFor((m) => m.type === 'manifest.error');
    sdk.close();
    await waitUntil(async () => (await recordOf('exhibit', exhibitId)).some(([type]) => type === 'offline'), 'the offline record');
    expect((await admin.post(`${base}/control/reload`)).status).toBe(409);
    const token = (await admin.post('/auth/exhibit', { name: 'Kiosk PC', exhibitId })).body;
    expect((await admin.delete(`/auth/exhibit/delete-token/${token.id}`)).status).toBe(200);

    const record = await recordOf('exhibit', exhibitId);
    expect(record).toEqual([
      ['token', 'info', `Token "sdk" created by ${adminEmail}`],
      ['online', 'info', expect.stringMatching(/^Online \(connected from .+\)$/)],
      ['manifest', 'info', 'Manifest received'],
      ['opMode', 'info', `Op mode set to On by ${adminEmail}`],
      ['control', 'info', `Control "reload" fired by ${adminEmail}: delivered`],
      ['setting', 'info', `Setting "kiosk_name" saved by ${adminEmail}: "Hall"`],
      ['setting', 'info', expect.stringMatching(/^Setting "kiosk_name" applied by the exhibit \(version \d+\)$/)],
      ['opMode', 'info', 'Op mode set to Off by the exhibit'],
      ['manifest', 'warn', 'Manifest refused: the exhibit is locked and the manifest changed its structure'],
      ['offline', 'info', 'Offline: the connection closed'],
      ['control', 'warn', `Control "reload" fired by ${adminEmail}: failed (The exhibit is offline.)`],
      ['token', 'info', `Token "Kiosk PC" created by ${adminEmail}`],
      ['token', 'info', `Token "Kiosk PC" revoked by ${adminEmail}`],
    ]);
    // No token value is ever written to the log.
    expect(JSON.stringify(record)).not.toContain(token.token);
  });
});

describe('the record of a board', () => {
  it('has online and offline with the reason, commands and their outcome, debug mode, button presses and prop changes', async () => {
    const hardwareId = (await createHardware(server.deps.db, siteId)).id;
    const { token } = await createToken(admin, hardwareId);
    const board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId, token });
    boards.push(board);
    await board.start();
    await waitUntilAnnounced(server, hardwareId);
    expect((await admin.put(`/hardware-mgmt/hardware/${hardwareId}`, { controlDebug: true })).status).toBe(200);
    await board.pressButton();
    await waitUntil(async () => (await recordOf('hardware', hardwareId)).filter(([type]) => type === 'button').length === 2, 'the press and the release');
    await board.changeProp('switch1', 'state', 1);
    expect((await admin.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, { value: 1 })).status).toBe(200);
    expect((await admin.get(`/hardware-mgmt/hardware/${hardwareId}/identify`)).status).toBe(200);
    expect((await admin.get(`/hardware-mgmt/hardware/${hardwareId}/reboot`)).status).toBe(200);
    await waitUntil(async () => (await recordOf('hardware', hardwareId)).filter(([type]) => type === 'online').length === 2, 'the board back after its reboot');

    const record = await recordOf('hardware', hardwareId);
    const without = (type: string) => record.filter(([t]) => t !== type);
    expect(without('prop').filter(([type]) => type !== 'button')).toEqual([
      ['online', 'info', 'Online: it connected'],
      ['debug', 'info', `Debug mode on by ${adminEmail}`],
      ['command', 'info', `Prop relay1 state set to 1 by ${adminEmail}: ok`],
      ['command', 'info', `Command identify sent by ${adminEmail}: ok`],
      ['reboot', 'info', `Command reboot sent by ${adminEmail}: ok`],
      ['offline', 'info', 'Offline: rebooting'],
      ['online', 'info', 'Online: it connected'],
    ]);
    expect(record.filter(([type]) => type === 'button')).toEqual([
      ['button', 'debug', 'Button state = 1'],
      ['button', 'debug', 'Button state = 0'],
    ]);
    expect(record.filter(([type]) => type === 'prop')).toEqual(
      expect.arrayContaining([
        ['prop', 'debug', 'Switch state = 1'],
        ['prop', 'debug', 'Relay state = 1'],
      ]),
    );
  });

  it('says why a board went offline', async () => {
    const hardwareId = (await createHardware(server.deps.db, siteId)).id;
    const { token } = await createToken(admin, hardwareId);
    const board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId, token, reconnectMs: 60_000 });
    boards.push(board);
    await board.start();
    await waitUntilAnnounced(server, hardwareId);
    board.drop();
    await waitUntil(async () => (await recordOf('hardware', hardwareId)).some(([type]) => type === 'offline'), 'the offline record');
    // The embedded broker may see the connection close before it publishes the will.
    const offline = (await recordOf('hardware', hardwareId)).filter(([type]) => type === 'offline');
    expect([
      [['offline', 'warn', 'Offline: the connection closed']],
      [['offline', 'info', 'Offline: it went away (its goodbye, or its last will when the connection was lost)']],
    ]).toContainEqual(offline);
  });
});
