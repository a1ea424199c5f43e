// The hardware benchmark's baseline: a bare aedes broker (the version Plinth embeds, no
// authentication, no hooks, no database) alone in its own process on 127.0.0.1. It tells its
// parent its port over the fork IPC channel and stops when the parent says `close` or goes away.
import net from 'node:net';
import { Aedes } from 'aedes';

// No cap on the messages aedes hands its subscribers at once (`concurrency: 0`). With its default
// of 100, a message's delivery to a QoS 0 subscriber ends a turn of the event loop later, so at
// most 100 leave a turn: at 2,000 boards with one message in flight each, aedes acknowledged 40,000
// a second, delivered 40 to 60, queued the rest and died of a stack overflow in mqemitter when its
// connections closed. Unbounded, it delivered 37,000 to 39,000 a second and lost nothing. The
// reference is the broker at its best; Plinth's in-process link never waits on that cap.
const broker = await Aedes.createBroker({ concurrency: 0 });
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
