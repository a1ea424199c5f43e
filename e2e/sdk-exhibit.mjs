// A real exhibit for the end-to-end runs: a separate Node process embedding @plinth/sdk.
//   PLINTH_URL=... EXHIBIT_ID=... EXHIBIT_TOKEN=... EXHIBIT_MANIFEST='{"statuses":[...]}' [CONTENT_DIR=...] node e2e/sdk-exhibit.mjs
// Prints one line per thing it receives (`ready`, `control <id> [itemId]`, `setting <id> <json>`,
// `setting <id> <json> <json entry>` for StrapiContent settings, `opMode <On|Off>`, `files <json change>`, `error <message>`), so that a test can wait for them on stdout. Reads one
// command per line on stdin: `status <id> <json value>` sets a status, `log <level> <text>` logs a
// line, `event <name> <json data>` sends a report event.
import readline from 'node:readline';
import { Exhibit } from '@plinth/sdk';

const exhibit = new Exhibit({
  serverUrl: process.env.PLINTH_URL,
  exhibitId: process.env.EXHIBIT_ID,
  token: process.env.EXHIBIT_TOKEN,
  manifest: JSON.parse(process.env.EXHIBIT_MANIFEST ?? '{}'),
  contentDir: process.env.CONTENT_DIR || undefined,
  reconnectMinMs: 200,
  reconnectMaxMs: 2000,
});

const say = (line) => process.stdout.write(`${line}\n`);

exhibit.on('control', ({ id, itemId }) => say(`control ${id}${itemId ? ` ${itemId}` : ''}`));
exhibit.on('setting', ({ id, value, content }) => say(`setting ${id} ${JSON.stringify(value)}${content === undefined ? '' : ` ${JSON.stringify(content)}`}`));
exhibit.on('opMode', ({ value }) => say(`opMode ${value}`));
exhibit.on('files', (change) => say(`files ${JSON.stringify(change)}`));
exhibit.on('error', (error) => say(`error ${error.message}`));
exhibit.on('disconnected', ({ code }) => say(`disconnected ${code}`));
exhibit.on('connected', () => say('connected'));

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const status = /^status (\S+) (.+)$/.exec(line.trim());
  if (status) {
    exhibit.setStatus(status[1], JSON.parse(status[2]));
    return say(`status ${status[1]} sent`);
  }
  const log = /^log (debug|info|warn|error) (.+)$/.exec(line.trim());
  if (log) {
    exhibit.logger[log[1]](log[2]);
    return say(`log ${log[1]} sent`);
  }
  const event = /^event (\S+) (.+)$/.exec(line.trim());
  if (event) {
    exhibit.event(event[1], JSON.parse(event[2]));
    return say(`event ${event[1]} sent`);
  }
  say(`unknown command ${line}`);
});

process.on('SIGTERM', () => {
  exhibit.close();
  process.exit(0);
});

try {
  await exhibit.ready();
  say('ready');
} catch (error) {
  say(`failed ${error.message}`);
  process.exit(1);
}
