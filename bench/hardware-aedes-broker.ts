// The hardware benchmark's baseline: a bare aedes broker (the version Plinth embeds, no
// authentication, no hooks, no database) alone in its own process on 127.0.0.1. It tells its
// parent its port over the fork IPC channel and stops when the parent says `close` or goes away.
import net from 'node:net';
import { Aedes } from 'aedes';

const broker = await Aedes.createBroker();
const server = net.createServer(broker.handle as (socket: net.Socket) => void);
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => resolve());
});

const stop = () => {
  server.close();
  broker.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('message', (message: { type: string }) => {
  if (message.type === 'close') stop();
});
process.on('disconnect', stop);
process.send?.({ type: 'listening', port: (server.address() as net.AddressInfo).port });
