import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardwareTopic } from '@plinth/shared';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createWorld } from '../../test/factories.js';
import { createHardwareRow, createToken, waitUntil } from '../../test/hardware-kit.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { insertOutboxMails } from '../notifications/mail-outbox.repository.js';
import { insertScheduledEvents } from '../scheduling/scheduling.repository.js';

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  // The outbox and the scheduler look once at start, then not for a minute: what the test queues stays due.
  server = await startTestServer({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', MAIL_OUTBOX_POLL_MS: '60000', SCHEDULER_POLL_MS: '60000' });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
});

/** The metrics port's text. */
async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** One series' value in the text (null when absent). */
function valueOf(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('the metrics port', () => {
  it('answers only GET /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/api/v1/auth`)).status).toBe(404);
  });

  it('counts exhibits online, their messages by type and the refused ones, console sockets, subscriptions and the fan-out delay', async () => {
    const world = await createWorld(server);
    const before = await scrape();
    expect(valueOf(before, 'plinth_exhibits_online')).toBe(0);
    const offlineBefore = valueOf(before, 'plinth_exhibits_offline')!;
    expect(offlineBefore).toBeGreaterThanOrEqual(1);
    let exhibit: ExhibitSocket | null = null;
    let consoleSocket: SocketClient | null = null;
    try {
      exhibit = await openExhibitSocket(server, admin, world.exhibit.id);
      consoleSocket = await SocketClient.open(server.url, { cookie: admin.cookieHeader });
      consoleSocket.send({ type: 'subscribe', exhibitIds: [world.exhibit.id] });
      await waitUntil(async () => valueOf(await scrape(), 'plinth_console_subscriptions') === 1, 'one subscription counted');
      exhibit.send({ type: 'opMode', value: 'Off' });
      exhibit.socket.send('not json');
      await waitUntil(async () => valueOf(await scrape(), 'plinth_exhibit_messages_invalid_total{reason="json"}') === 1, 'the refused message counted');
      const text = await scrape();
      expect(valueOf(text, 'plinth_exhibits_online')).toBe(1);
      expect(valueOf(text, 'plinth_exhibits_offline')).toBe(offlineBefore - 1);
      expect(valueOf(text, 'plinth_exhibit_messages_total{type="auth"}')).toBe(1);
      expect(valueOf(text, 'plinth_exhibit_messages_total{type="opMode"}')).toBe(1);
      expect(valueOf(text, 'plinth_console_sockets')).toBe(1);
      // The op-mode change reached the console socket through the hub.
      expect(valueOf(text, 'plinth_realtime_fanout_delay_seconds_count')).toBeGreaterThanOrEqual(1);
    } finally {
      exhibit?.close();
      consoleSocket?.ws.close();
    }
    await waitUntil(async () => {
      const text = await scrape();
      return valueOf(text, 'plinth_exhibits_online') === 0 && valueOf(text, 'plinth_console_sockets') === 0 && valueOf(text, 'plinth_console_subscriptions') === 0;
    }, 'the exhibit and the console socket gone from the counts');
  });

  it('counts board messages by channel and the invalid ones dropped', async () => {
    const ids = await createHardwareRow(server);
    const { token } = await createToken(admin, ids.hardwareId);
    const board = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ids.hardwareId, password: token, reconnectPeriod: 0, protocolVersion: 4 });
    try {
      const before = valueOf(await scrape(), 'plinth_board_messages_invalid_total{channel="heartbeat"}') ?? 0;
      await board.publishAsync(hardwareTopic(ids.hardwareId, 'heartbeat'), '{"voltage":"not a number"', { qos: 1 });
      await waitUntil(async () => valueOf(await scrape(), 'plinth_board_messages_invalid_total{channel="heartbeat"}') === before + 1, 'the invalid heartbeat counted');
      expect(valueOf(await scrape(), 'plinth_board_messages_total{channel="heartbeat"}')).toBeGreaterThanOrEqual(1);
    } finally {
      await board.endAsync(true);
    }
  });

  it('reads the mail outbox and the scheduler backlog from the database', async () => {
    const world = await createWorld(server);
    const past = new Date(Date.now() - 1000);
    await insertOutboxMails(server.deps.db, [{ kind: 'test', toEmail: 'a@example.com', subject: 'S', textBody: 'T', notBefore: past }]);
    await insertOutboxMails(server.deps.db, [{ kind: 'test', toEmail: 'b@example.com', subject: 'S', textBody: 'T', notBefore: new Date(Date.now() + 3_600_000) }]);
    await insertScheduledEvents(server.deps.db, [{ exhibitId: world.exhibit.id, name: 'Due', startDate: past, changes: { controls: [], settings: [], strapiContent: [] } }]);
    const text = await scrape();
    expect(valueOf(text, 'plinth_mail_outbox_due')).toBe(1);
    expect(valueOf(text, 'plinth_scheduled_events_due')).toBe(1);
  });
});
