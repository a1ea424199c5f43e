import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeHardwareProtocol } from '../test/hardware-protocol-suite.js';
import { startMosquitto } from '../test/mosquitto.js';
import { startTestServer } from '../test/test-server.js';

describeHardwareProtocol('external Mosquitto 2 with dynamic security', async () => {
  const mosquitto = await startMosquitto();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-hw-'));
  const server = await startTestServer({ MQTT_URL: mosquitto.serverUrl, DATA_DIR: dataDir });
  return {
    server,
    boardUrl: mosquitto.url,
    stop: async () => {
      await server.stop();
      await mosquitto.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
