import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { loadDotEnv } from './lib/dotenv.js';
import { PortInUseError } from './lib/port-conflict.js';
import { startServer } from './server.js';

/**
 * `npm start`: reads `.env` and the configuration, starts Plinth, stops cleanly on SIGINT/SIGTERM.
 * SIGTERM (what a service manager or an orchestrator sends) first drains: `/readyz` answers 503
 * for SHUTDOWN_DRAIN_MS while requests are still served, so the load balancer moves traffic
 * away before the node closes. SIGINT (Ctrl-C on a terminal) stops at once.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0;
    server.deps.logger.info(drainMs ? `${signal} received: draining for ${drainMs} ms (/readyz answers 503), then stopping` : `${signal} received, stopping`);
    server
      .drain(drainMs)
      .then(() => server.close())
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
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof PortInUseError) {
    console.error(`plinth: ${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`plinth: ${(error as Error).message}. Another program uses that port: set PORT or MQTT_PORT.`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
