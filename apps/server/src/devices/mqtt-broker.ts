import net from 'node:net';
import { Aedes } from 'aedes';
import type { Logger } from 'pino';

export type EmbeddedBroker = { broker: Aedes; port: number; close: () => Promise<void> };

/**
 * The embedded MQTT broker (aedes) boards connect to when no MQTT_URL is set. Until board
 * authentication is in place every connection is refused, so the port never serves anonymous
 * clients.
 */
export async function startEmbeddedBroker(options: { port: number; host: string; logger: Logger }): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  broker.authenticate = (_client, _username, _password, done) => {
    const error = Object.assign(new Error('Not authorized'), { returnCode: 5 });
    done(error as never, false);
  };
  const server = net.createServer(broker.handle as (socket: net.Socket) => void);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  options.logger.info(`MQTT broker listening on ${options.host}:${port}`);
  return {
    broker,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
