import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { loadDotEnv } from './lib/dotenv.js';
import { limitHeapGrowth } from './lib/heap-growth.js';
import { PortInUseError } from './lib/port-conflict.js';
import { installQuietDebug } from './lib/quiet-debug.js';

/**
 * `npm start`: reads `.env` and the configuration, starts Plinth, stops cleanly on SIGINT/SIGTERM.
 * SIGTERM (what a service manager or an orchestrator sends) first drains: `/readyz` answers 503
 * for SHUTDOWN_DRAIN_MS while requests are still served, so the load balancer moves traffic
 * away before the node closes. SIGINT (Ctrl-C on a terminal) stops at once.
 */
/** How long stopping may take once the drain is over (requests in flight, batched writes, devices told). */
const STOP_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  limitHeapGrowth();
  loadDotEnv();
  // After .env (which may set DEBUG) and before the server's modules load: the MQTT packet parser
  // makes its debug functions as it loads.
  installQuietDebug();
  const config = loadConfig();
  const { startServer } = await import('./server.js');
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0;
    server.deps.logger.info(drainMs ? `${signal} received: draining for ${drainMs} ms (/readyz answers 503), then stopping` : `${signal} received, stopping`);
    // Whatever hangs (a client that never lets go), the process is gone STOP_TIMEOUT_MS after the drain.
    setTimeout(() => {
      console.error(`plinth: did not stop within ${STOP_TIMEOUT_MS / 1000} s of the drain's end; exiting`);
      process.exit(1);
    }, drainMs + STOP_TIMEOUT_MS).unref();
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
