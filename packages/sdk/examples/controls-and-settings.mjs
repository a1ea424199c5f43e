// An exhibit that reacts to controls, settings, setting lists and op mode, and counts visitors.
//   PLINTH_URL=http://localhost:3000 EXHIBIT_ID=... EXHIBIT_TOKEN=... node examples/controls-and-settings.mjs
import { Exhibit } from '@plinth/sdk';

const exhibit = new Exhibit({
  serverUrl: process.env.PLINTH_URL ?? 'http://localhost:3000',
  exhibitId: process.env.EXHIBIT_ID,
  token: process.env.EXHIBIT_TOKEN,
  manifest: new URL('./manifest.json', import.meta.url).pathname,
});

let visitors = 0;
let volume = 5;

exhibit.on('control', ({ id, itemId }) => {
  console.log('control', id, itemId ?? '');
  if (id === 'volume') volume = Math.max(0, Math.min(10, volume + (itemId === 'up' ? 1 : -1)));
  if (id === 'reload') exhibit.logger.info('reloading content');
  exhibit.event('control', id);
});

// Values are typed: booleans for toggles, numbers for integers, item ids for dropdowns.
exhibit.on('setting', ({ id, value }) => console.log(`setting ${id} =`, value));
exhibit.on('settingList', ({ id, items }) => console.log(`list ${id}:`, items.map((i) => i.listName).join(', ')));
exhibit.on('opMode', ({ value }) => console.log('op mode', value));
exhibit.on('error', (error) => console.error('exhibit error:', error.message));

await exhibit.ready();
console.log('ready in op mode', exhibit.getOpMode(), 'with', exhibit.getSettings());

// A visitor every few seconds while the exhibit is On.
const timer = setInterval(() => {
  if (exhibit.getOpMode() !== 'On') return;
  visitors += 1;
  exhibit.setStatus('count', visitors);
  exhibit.setStatus('last_interaction', new Date().toISOString());
  exhibit.event('visit', visitors);
}, 5000);

process.on('SIGINT', () => {
  clearInterval(timer);
  exhibit.close();
  process.exit(0);
});
