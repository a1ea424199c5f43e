import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { createHardwareRow, createToken, newBoard, waitUntil, waitUntilAnnounced } from '../../test/hardware-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let admin: TestClient;
const boards: SimulatedBoard[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterEach(async () => {
  await Promise.all(boards.splice(0).map((b) => b.stop()));
});
afterAll(async () => {
  await server?.stop();
});

/** A simulated board online, announced and in debug mode, so its props may be set. */
async function boardInDebugMode() {
  const ids = await createHardwareRow(server);
  const { token } = await createToken(admin, ids.hardwareId);
  const board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId: ids.hardwareId, token });
  boards.push(board);
  await board.start();
  await waitUntilAnnounced(server, ids.hardwareId);
  await server.deps.hardwareGateway.setDebug(ids.hardwareId, true);
  await waitUntil(() => board.debug, 'the board in debug mode');
  return { ...ids, board };
}

describe('PUT /hardware-mgmt/peripheral/{hardwareId}/{peripheralId}/{propName}', () => {
  it("takes the spec's body {value}: the path names the board", async () => {
    const { hardwareId, board } = await boardInDebugMode();
    const res = await admin.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, { value: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true });
    expect(board.findProp('relay1', 'state')!.value).toBe(1);
  });

  it('accepts an older client’s hardwareId in the body when it is the board of the path, and refuses another', async () => {
    const { hardwareId, board } = await boardInDebugMode();
    const same = await admin.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, { hardwareId, value: 1 });
    expect(same.status).toBe(200);
    expect(board.findProp('relay1', 'state')!.value).toBe(1);
    const other = await createHardwareRow(server);
    const mismatch = await admin.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, { hardwareId: other.hardwareId, value: 0 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'ValidationError', message: expect.stringMatching(/^hardwareId: /) });
    expect(board.findProp('relay1', 'state')!.value).toBe(1);
  });

  it('names the field of a bad path or body, and keeps the rights of the board', async () => {
    const { hardwareId } = await createHardwareRow(server);
    const notId = await admin.put('/hardware-mgmt/peripheral/not-an-id/relay1/state', { value: 1 });
    expect(notId.status).toBe(400);
    expect(notId.body.message).toMatch(/^hardwareId: /);
    const noValue = await admin.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, {});
    expect(noValue.status).toBe(400);
    expect(noValue.body.message).toMatch(/^value: /);
    const stranger = (await server.signUp()).client;
    expect((await stranger.put(`/hardware-mgmt/peripheral/${hardwareId}/relay1/state`, { value: 1 })).status).toBe(404);
  });

  it('still serves the two-segment form with the board in the body', async () => {
    const { hardwareId, board } = await boardInDebugMode();
    const res = await admin.put('/hardware-mgmt/peripheral/relay1/state', { hardwareId, value: 1 });
    expect(res.status).toBe(200);
    expect(board.findProp('relay1', 'state')!.value).toBe(1);
  });
});
