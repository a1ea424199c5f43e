import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';

describe('GET /config', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers the port the embedded broker really listens on when MQTT_PORT=0 picked a free one', async () => {
    const res = await server.client().get('/config');
    expect(res.status).toBe(200);
    expect(server.mqttPort).toBeGreaterThan(0);
    expect(res.body.mqttPort).toBe(server.mqttPort);
  });
});
