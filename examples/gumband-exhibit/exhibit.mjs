/**
 * An exhibit written against Gumband's published SDK, unchanged but for its endpoint options:
 * it runs against Plinth started with GUMBAND_COMPAT=1 (docs/gumband-compatibility.md).
 *
 *   GB_EXHIBIT_ID=<Plinth exhibit id> GB_TOKEN=<Plinth exhibit token> GB_HOST=127.0.0.1 node exhibit.mjs
 *
 * (An ES module importing the CommonJS SDK; `const { Gumband, Sockets } = require(...)` in a .js
 * file works the same.)
 *
 * It prints one JSON line per thing it sees ({"event": ..., "payload": ...}), and reads commands
 * on stdin: `lock <manifest path>` locks its manifest and sends another one.
 */
import path from 'node:path';
import readline from 'node:readline';
import gumband from '@deeplocal/gumband-node-sdk';

const { Gumband, Sockets } = gumband;

const print = (event, payload = null) => process.stdout.write(`${JSON.stringify({ event, payload })}\n`);

const gb = new Gumband(process.env.GB_TOKEN, process.env.GB_EXHIBIT_ID, process.env.GB_MANIFEST || path.join(import.meta.dirname, 'manifest.json'), {
  endpoint: 'custom',
  customServerIP: process.env.GB_HOST || '127.0.0.1',
  version: 'v1',
  contentLocation: null,
});

gb.on('error', (message) => print('error', String(message)));
gb.on(Sockets.EXHIBIT_ONLINE, () => print('online'));
gb.on(Sockets.CONTROL_RECEIVED, (payload) => print('control', payload));
gb.on(Sockets.SETTING_RECEIVED, (payload) => print('setting', payload));
gb.on(Sockets.SETTING_LIST_RECEIVED, (payload) => print('settingList', payload));
gb.on(Sockets.OP_MODE_RECEIVED, (payload) => print('opMode', payload));
gb.on(Sockets.FILE_UPLOADED, (payload) => print('fileUploaded', payload));
gb.on(Sockets.FILE_DELETED, (payload) => print('fileDeleted', payload));

gb.on(Sockets.READY, async () => {
  await gb.setStatus('ip_address', '10.0.0.7');
  await gb.setStatus('count', 3);
  await gb.setStatus('projector/lamp_hours', '1200');
  gb.logger.info('Hello from a Gumband exhibit');
  await gb.event.create('visit', { room: 'lobby', value: 'kids' });
  const setting = await gb.getSetting('audio/muted');
  const opMode = await gb.getOperatingMode();
  print('ready', { settings: gb.manifest.settings.map((s) => s.manifestId), muted: setting.value, opMode });
});

readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, argument] = line.trim().split(/\s+/);
  if (command === 'lock') {
    await gb.setManifestLocked(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await gb.setManifest(argument);
    print('manifestSent', { settings: gb.manifest.settings.map((s) => s.manifestId) });
  }
});
