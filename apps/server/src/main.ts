import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { loadDotEnv } from './lib/dotenv.js';
import { startServer } from './server.js';

/** `npm start`: reads `.env` and the configuration, starts Plinth, stops cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.deps.logger.info(`${signal} received, stopping`);
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`plinth: ${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`plinth: ${(error as Error).message}. Another program uses that port: set PORT or MQTT_PORT.`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
