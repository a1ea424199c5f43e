import net from 'node:net';

/**
 * A TCP proxy in front of a service (PostgreSQL, Redis) whose link a test cuts and mends: `cut`
 * drops every connection and then either refuses new ones ('refuse': the service is down) or
 * takes them and never answers ('blackhole': the network is cut); `mend` forwards again.
 */
export type CuttableProxy = Awaited<ReturnType<typeof startCuttableProxy>>;

export async function startCuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let mode: 'open' | 'refuse' | 'blackhole' = 'open';
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'refuse') return void client.destroy();
    if (mode === 'blackhole') return;
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
      dropAll();
    },
    mend: () => {
      mode = 'open';
    },
    close: async () => {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
