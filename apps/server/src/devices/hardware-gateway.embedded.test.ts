import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { describeHardwareProtocol } from '../test/hardware-protocol-suite.js';
import { startTestServer } from '../test/test-server.js';

describeHardwareProtocol('embedded aedes broker', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-hw-'));
  const server = await startTestServer({ DATA_DIR: dataDir });
  return {
    server,
    boardUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
