import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hardwareTopic } from '@plinth/shared';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { createHardwareRow, createToken, hardwareRow, newBoard, recordEvents, waitUntil, waitUntilAnnounced } from './hardware-kit.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

/** The QoS the broker granted a subscription (128: refused). */
async function grantedQos(client: mqtt.MqttClient, topic: string): Promise<number> {
  try {
    const granted = await client.subscribeAsync(topic, { qos: 1 });
    return granted[0]!.qos;
  } catch (error) {
    const packet = (error as { packet?: { granted?: (number | { qos: number })[] } }).packet;
    const first = packet?.granted?.[0];
    if (first === undefined) throw error;
    return typeof first === 'number' ? first : first.qos;
  }
}

export type ProtocolTarget = {
  server: TestServer;
  /** The address boards connect to. */
  boardUrl: string;
  stop: () => Promise<void>;
};

/**
 * The board protocol's rules, run against one broker (the embedded aedes, or a real Mosquitto with
 * Plinth's dynamic-security provisioning): authentication, per-board topics, online/offline from
 * the last will and from silence, every command round trip, prop sets and revoked tokens.
 */
export function describeHardwareProtocol(name: string, start: () => Promise<ProtocolTarget>): void {
  describe(`hardware MQTT protocol (${name})`, () => {
    let target: ProtocolTarget;
    let admin: TestClient;
    const boards: SimulatedBoard[] = [];
    const clients: mqtt.MqttClient[] = [];

    beforeAll(async () => {
      target = await start();
      admin = (await target.server.signUp({ isPlatformAdmin: true })).client;
    });
    afterEach(async () => {
      await Promise.all(boards.splice(0).map((b) => b.stop()));
      await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
    });
    afterAll(async () => {
      await target?.stop();
    });

    const board = async (hardwareId: string, token: string, extra: { heartbeatMs?: number } = {}) => {
      const b = newBoard({ url: target.boardUrl, hardwareId, token, ...extra });
      boards.push(b);
      await b.start();
      return b;
    };
    const onlineBoard = async (extra: { heartbeatMs?: number } = {}) => {
      const ids = await createHardwareRow(target.server);
      const { token, id: tokenId } = await createToken(admin, ids.hardwareId);
      const b = await board(ids.hardwareId, token, extra);
      await waitUntilAnnounced(target.server, ids.hardwareId);
      return { ...ids, token, tokenId, board: b };
    };
    const rawClient = async (hardwareId: string, password: string) => {
      const client = await mqtt.connectAsync(target.boardUrl, {
        username: hardwareId,
        password,
        reconnectPeriod: 0,
        protocolVersion: 4,
        clientId: `probe-${Math.random().toString(36).slice(2, 10)}`,
      });
      // A refused publish may close the connection; that is an outcome the test reads, not a crash.
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    };

    it('refuses a board with a wrong token, an unknown id or no credentials', async () => {
      const { hardwareId } = await createHardwareRow(target.server);
      await createToken(admin, hardwareId);
      const wrong = newBoard({ url: target.boardUrl, hardwareId, token: 'not-the-token' });
      await expect(wrong.start()).rejects.toThrow(/Bad username or password|Not authorized/i);
      const unknown = newBoard({ url: target.boardUrl, hardwareId: '00000000-0000-4000-8000-000000000000', token: 'x' });
      await expect(unknown.start()).rejects.toThrow(/Bad username or password|Not authorized/i);
      await expect(
        mqtt.connectAsync(target.boardUrl, { reconnectPeriod: 0, protocolVersion: 4, clientId: 'anonymous-probe' }),
      ).rejects.toThrow(/Not authorized|Bad username or password/i);
      expect((await hardwareRow(target.server, hardwareId)).online).toBe(false);
    });

    it("orders status messages by their connection's epoch: a late will of an older connection never marks a reconnected board offline", async () => {
      const { hardwareId } = await createHardwareRow(target.server);
      const { token } = await createToken(admin, hardwareId);
      const client = await rawClient(hardwareId, token);
      const topic = `plinth/hw/${hardwareId}/status`;
      // Sends a status, then a malformed one: a board's messages are handled in order, so once the
      // malformed one is counted the status before it has been applied (or ignored).
      let refused = 0;
      const status = async (message: object) => {
        await client.publishAsync(topic, JSON.stringify(message), { qos: 1 });
        await client.publishAsync(topic, '{"online":"perhaps"}', { qos: 1 });
        refused += 1;
        const row = await waitUntil(async () => {
          const current = await hardwareRow(target.server, hardwareId);
          return current.invalidMessages >= refused ? current : null;
        }, 'the status handled');
        return row.online;
      };
      expect(await status({ online: true, epoch: 200 })).toBe(true);
      // The will of connection 100, handled after connection 200 said it is online: ignored.
      expect(await status({ online: false, epoch: 100 })).toBe(true);
      // Connection 200's own will applies.
      expect(await status({ online: false, epoch: 200 })).toBe(false);
      // A late "online" of connection 150 does not bring it back either; connection 300 does.
      expect(await status({ online: true, epoch: 150 })).toBe(false);
      expect(await status({ online: true, epoch: 300 })).toBe(true);
      // A board that sends no epoch is taken as it comes.
      expect(await status({ online: false })).toBe(false);
    });

    it('marks a board online from its announce and heartbeat, with every field, and tells subscribers', async () => {
      const ids = await createHardwareRow(target.server);
      const { token } = await createToken(admin, ids.hardwareId);
      const recorder = recordEvents(target.server, ids.hardwareId);
      await board(ids.hardwareId, token);
      const row = await waitUntil(async () => {
        const r = await hardwareRow(target.server, ids.hardwareId);
        return r.online && r.voltage !== null && r.plinthFw ? r : null;
      }, 'announce and heartbeat stored');
      expect(row).toMatchObject({ plinthFw: '46', userFw: '1.0', ip: '10.0.0.42', mac: 'DE:AD:BE:EF:00:01', exhibitState: 'running' });
      expect(row.lastOnlineChange).toBeInstanceOf(Date);
      const peripherals = row.peripherals as { id: string; props: { name: string; settable: string; hide: string }[] }[];
      expect(peripherals.map((p) => p.id)).toEqual(
        expect.arrayContaining(['button1', 'trigger1', 'switch1', 'relay1', 'text1', 'bool1', 'pwm1', 'led1', 'strip1', 'color1', 'byte1', 'int1']),
      );
      expect(peripherals.find((p) => p.id === 'pwm1')!.props.find((p) => p.name === 'frequency')).toMatchObject({ hide: 'true', settable: 'false' });
      await waitUntil(() => recorder.events.some((e) => e.type === 'hardware.statusChanged'), 'a status event');
      expect(recorder.events).toContainEqual({ type: 'hardware.presenceChanged', hardwareId: ids.hardwareId, online: true });
      recorder.stop();
    });

    it('keeps a board to its own prefix: no subscribing to, publishing as, or hearing another board', async () => {
      const a = await onlineBoard();
      const b = await onlineBoard();
      const probe = await rawClient(a.hardwareId, a.token);
      expect(await grantedQos(probe, hardwareTopic(b.hardwareId, 'cmd'))).toBe(128);
      expect(await grantedQos(probe, 'plinth/hw/#')).toBe(128);
      expect(await grantedQos(probe, hardwareTopic(a.hardwareId, 'cmd'))).toBe(1);

      // A publishes a prop change under B's prefix: neither the server nor B takes it. The broker
      // either acknowledges and drops it (Mosquitto) or closes A's connection (aedes); wait for either.
      const before = (await hardwareRow(target.server, b.hardwareId)).peripherals;
      const closed = new Promise<void>((resolve) => probe.once('close', () => resolve()));
      await Promise.race([
        probe.publishAsync(hardwareTopic(b.hardwareId, 'prop'), JSON.stringify({ peripheralId: 'relay1', propName: 'state', value: 1 }), { qos: 1 }).catch(() => undefined),
        closed,
      ]);
      // A prop change under A's own prefix goes through; once it has, B's row shows nothing came in.
      await a.board.changeProp('relay1', 'state', 1);
      await waitUntil(async () => {
        const p = (await hardwareRow(target.server, a.hardwareId)).peripherals as { id: string; props: { name: string; value: unknown }[] }[];
        return p.find((x) => x.id === 'relay1')!.props[0]!.value === 1;
      }, "A's own prop change");
      expect((await hardwareRow(target.server, b.hardwareId)).peripherals).toEqual(before);
      expect(b.board.findProp('relay1', 'state')!.value).toBe(0);
    });

    it('goes offline from the last will when the connection drops, and back online when it returns', async () => {
      const { hardwareId, board: b } = await onlineBoard();
      const recorder = recordEvents(target.server, hardwareId);
      b.drop();
      await waitUntil(async () => !(await hardwareRow(target.server, hardwareId)).online, 'offline after the will');
      expect(recorder.events).toContainEqual({ type: 'hardware.presenceChanged', hardwareId, online: false });
      recorder.stop();
    });

    it('goes offline when a connected board falls silent past its heartbeat window', async () => {
      const { hardwareId, board: b } = await onlineBoard({ heartbeatMs: 150 });
      b.silence();
      await waitUntil(async () => !(await hardwareRow(target.server, hardwareId)).online, 'offline after silence');
      expect(b.connected).toBe(true);
    });

    it('carries every command round trip with its correlation id', async () => {
      const { hardwareId, board: b } = await onlineBoard();
      const seen: string[] = [];
      b.on('event', (e) => {
        if (e.kind === 'command') seen.push(e.command.command);
        if (e.kind === 'identify') seen.push('identified');
      });
      const identify = await admin.get(`/hardware-mgmt/hardware/${hardwareId}/identify`);
      expect(identify.status).toBe(200);
      expect(identify.body).toMatchObject({ ok: true });
      expect(identify.body.correlationId).toMatch(/[0-9a-f-]{36}/);
      expect(seen).toContain('identified');

      b.plinthFw = '47';
      const get = await admin.get(`/hardware-mgmt/hardware/${hardwareId}/get`);
      expect(get.body).toMatchObject({ ok: true });
      await waitUntil(async () => (await hardwareRow(target.server, hardwareId)).plinthFw === '47', 're-announced values');

      let connects = 0;
      b.on('event', (e) => {
        if (e.kind === 'connected') connects += 1;
      });
      const reboot = await admin.get(`/hardware-mgmt/hardware/${hardwareId}/reboot`);
      expect(reboot.body).toMatchObject({ ok: true });
      await waitUntil(() => connects > 0 && b.connected, 'the board back after its reboot');
      await waitUntil(async () => (await hardwareRow(target.server, hardwareId)).online, 'online after reboot');
      expect(seen).toEqual(expect.arrayContaining(['identify', 'get', 'reboot']));

      expect((await admin.get(`/hardware-mgmt/hardware/${hardwareId}/dance`)).status).toBe(400);
    });

    it('refuses prop sets without debug mode, then sets, checks and echoes them with it', async () => {
      const { hardwareId, board: b } = await onlineBoard();
      const refused = await admin.put('/hardware-mgmt/peripheral/relay1/state', { hardwareId, value: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body.response).toMatch(/debug mode/i);
      expect(b.findProp('relay1', 'state')!.value).toBe(0);

      await target.server.deps.hardwareGateway.setDebug(hardwareId, true);
      await waitUntil(() => b.debug, 'the board in debug mode');
      const recorder = recordEvents(target.server, hardwareId);
      const set = await admin.put('/hardware-mgmt/peripheral/relay1/state', { hardwareId, value: 1 });
      expect(set.status).toBe(200);
      expect(set.body.ok).toBe(true);
      expect(b.findProp('relay1', 'state')!.value).toBe(1);
      await waitUntil(
        () => recorder.events.find((e) => e.type === 'hardware.propChanged' && e.propName === 'state' && e.periphName === 'Relay'),
        'the echoed prop',
      );
      expect(recorder.events).toContainEqual({ type: 'hardware.propChanged', hardwareId, peripheralId: 'relay1', propType: 'toggle', propName: 'state', value: 1, periphName: 'Relay' });
      recorder.stop();

      const tooHigh = await admin.put('/hardware-mgmt/peripheral/pwm1/duty', { hardwareId, value: 300 });
      expect(tooHigh.status).toBe(400);
      expect(tooHigh.body.response).toBe('Number must be below maximum value of 255');
      const readOnly = await admin.put('/hardware-mgmt/peripheral/button1/state', { hardwareId, value: 1 });
      expect(readOnly.status).toBe(400);
      const unknown = await admin.put('/hardware-mgmt/peripheral/nope/state', { hardwareId, value: 1 });
      expect(unknown.status).toBe(404);
      const hex = await admin.put('/hardware-mgmt/peripheral/byte1/value', { hardwareId, value: '0x1F' });
      expect(hex.status).toBe(200);
      expect(b.findProp('byte1', 'value')!.value).toBe(31);
      const led = await admin.put('/hardware-mgmt/peripheral/strip1/pixel', { hardwareId, value: '3,200,0,10,20,30' });
      expect(led.status).toBe(200);
      expect(b.findProp('strip1', 'pixel')!.value).toBe('3,200,0,10,20,30');
    });

    it('keeps the lines a board logs while offline and sends them after it reconnects, in order, once', async () => {
      const { hardwareId, board: b } = await onlineBoard();
      const since = Date.now() - 60_000;
      b.drop();
      for (const n of [1, 2, 3]) b.logLine('info', `offline line ${n}`);
      await b.reboot();
      const offlineLines = async () => {
        const res = await admin.get<{ logs: { message: string }[] }>(
          `/logging/hardware?hardwareId=${hardwareId}&start=${since}&end=${Date.now() + 60_000}&logsPerPage=100`,
        );
        expect(res.status).toBe(200);
        // Newest first: oldest first reads the order the board logged them in.
        return res.body.logs.map((l) => l.message).filter((m) => m.startsWith('offline line')).reverse();
      };
      await waitUntil(async () => (await offlineLines()).length >= 3, 'the queued lines stored');
      // A late duplicate would land within the writer's next flushes.
      await new Promise((r) => setTimeout(r, 500));
      expect(await offlineLines()).toEqual(['offline line 1', 'offline line 2', 'offline line 3']);
    });

    it('drops the live session of a revoked token and refuses it at the next connect', async () => {
      const { hardwareId, token, tokenId, board: b } = await onlineBoard();
      const removed = await admin.delete(`/auth/hardware/delete-token/${tokenId}`);
      expect(removed.status).toBe(200);
      await waitUntil(() => !b.connected, 'the session dropped');
      await b.stop();
      const again = newBoard({ url: target.boardUrl, hardwareId, token });
      await expect(again.start()).rejects.toThrow(/Bad username or password|Not authorized/i);
      await waitUntil(async () => !(await hardwareRow(target.server, hardwareId)).online, 'offline after revocation');
    });
  });
}
