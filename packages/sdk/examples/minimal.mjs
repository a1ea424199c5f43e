// The smallest exhibit: connect, report a status, log, and stop on Ctrl+C.
//   PLINTH_URL=http://localhost:3000 EXHIBIT_ID=... EXHIBIT_TOKEN=... node examples/minimal.mjs
import { Exhibit } from '@plinth/sdk';

const exhibit = new Exhibit({
  serverUrl: process.env.PLINTH_URL ?? 'http://localhost:3000',
  exhibitId: process.env.EXHIBIT_ID,
  token: process.env.EXHIBIT_TOKEN,
  manifest: new URL('./manifest.json', import.meta.url).pathname,
});

exhibit.on('disconnected', ({ code }) => console.log(`disconnected (${code}); reconnecting…`));
exhibit.on('connected', () => console.log('connected again, settings re-synced'));
exhibit.on('error', (error) => console.error('exhibit error:', error.message));

await exhibit.ready();
console.log('ready; settings:', exhibit.getSettings());
exhibit.setStatus('ip_address', '127.0.0.1');
exhibit.logger.info('minimal exhibit started');

process.on('SIGINT', () => {
  exhibit.close();
  process.exit(0);
});
