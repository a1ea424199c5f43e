// The side of a forked server instance that the newer benchmarks share (bench/lib/schedule-node.ts,
// bench/lib/people-node.ts): it starts Plinth in this process (startServer from the sources
// through tsx, with the configuration in its environment), says it is ready over IPC, and answers
// each request the benchmark sends with the handler's value. On PGlite, which one process holds
// alone, this is how a benchmark still reaches the database.
import { loadConfig } from '../../apps/server/src/config.js';
import { startServer, type RunningServer } from '../../apps/server/src/server.js';

/** A request to an instance: an id the answer repeats, and what to do. */
export type IpcRequest = { id: number; type: string };

/** What an instance sends back. */
export type FromNode =
  | { type: 'ready'; url: string; node: string }
  | { type: 'failed'; message: string }
  | { id: number; type: 'answer'; value: unknown }
  | { id: number; type: 'error'; message: string };

/** Starts the server and answers requests with `handle` until a 'close' request (which must close the server). */
export function serveOverIpc<T extends IpcRequest>(handle: (server: RunningServer, message: T) => Promise<unknown>): void {
  const main = async () => {
    const server = await startServer(loadConfig());
    process.send!({ type: 'ready', url: server.url, node: server.deps.scheduler?.node ?? '' } satisfies FromNode);
    process.on('message', (message: T) => {
      handle(server, message).then(
        (value) => {
          process.send!({ id: message.id, type: 'answer', value } satisfies FromNode);
          if (message.type === 'close') process.disconnect();
        },
        (error: unknown) => process.send!({ id: message.id, type: 'error', message: (error as Error).message } satisfies FromNode),
      );
    });
  };
  main().catch((error: unknown) => {
    process.send?.({ type: 'failed', message: (error as Error).stack ?? String(error) } satisfies FromNode);
    process.exitCode = 1;
    process.disconnect?.();
  });
}
