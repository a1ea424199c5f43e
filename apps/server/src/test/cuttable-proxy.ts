import net from 'node:net';
import { createTestDatabase, startTestServer, type TestServer } from './test-server.js';

/**
 * A TCP proxy in front of a service (PostgreSQL, Redis) whose link a test cuts and mends: `cut`
 * drops every connection and then either refuses new ones ('refuse': the service is down) or
 * takes them and never answers ('blackhole': the network is cut); `mend` forwards again.
 * `held` counts the connections taken and left unanswered since the last cut.
 */
export type CuttableProxy = Awaited<ReturnType<typeof startCuttableProxy>>;

export async function startCuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let mode: 'open' | 'refuse' | 'blackhole' = 'open';
  let held = 0;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'refuse') return void client.destroy();
    if (mode === 'blackhole') {
      held += 1;
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    cut: (how: 'refuse' | 'blackhole') => {
      mode = how;
      held = 0;
      dropAll();
    },
    held: () => held,
    mend: () => {
      mode = 'open';
    },
    close: async () => {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A test server on a fresh database that it reaches through a cuttable proxy, with a short connect
 * timeout (1.5 s) so that a statement on a cut link ends quickly; `databaseUrl` reaches the database
 * directly. `stop` mends the link, then stops the server, the proxy and drops the database.
 */
export async function startServerBehindProxy(): Promise<{ server: TestServer; proxy: CuttableProxy; databaseUrl: string; stop: () => Promise<void> }> {
  const database = await createTestDatabase();
  const url = new URL(database.url);
  const proxy = await startCuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  const server = await startTestServer({ DATABASE_CONNECT_TIMEOUT_MS: '1500' }, { databaseUrl: url.toString() });
  return {
    server,
    proxy,
    databaseUrl: database.url,
    stop: async () => {
      proxy.mend();
      await server.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
