import net from 'node:net';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startServer } from '../server.js';
import { createTestDatabase } from '../test/test-server.js';
import { PortInUseError } from './port-conflict.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Takes a loopback port with `server` and answers it. */
async function occupy(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as net.AddressInfo).port;
}

/** What starting a server with these settings fails with. */
async function startFailure(env: Record<string, string>): Promise<unknown> {
  const database = await createTestDatabase();
  closers.push(database.drop);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', DATABASE_URL: database.url, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...env });
  const server = await startServer(config).catch((error: unknown) => ({ error }));
  if ('error' in server) return server.error;
  await server.close();
  throw new Error('the server started');
}

describe('a port already in use', () => {
  it('names the HTTP port and PORT, before anything else opens', async () => {
    const port = await occupy(net.createServer());
    const error = await startFailure({ PORT: String(port) });
    expect(error).toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toBe(
      `Port ${port} (PORT) is already in use by another program (perhaps another Plinth).\nStop that program, or start Plinth on another port: PORT=${port + 1} npm start`,
    );
  });

  it('taken by an MQTT broker: says how to use that broker (MQTT_URL) or choose another MQTT_PORT', async () => {
    const broker = await Aedes.createBroker();
    closers.push(() => new Promise<void>((resolve) => broker.close(() => resolve())));
    const port = await occupy(net.createServer(broker.handle as (socket: net.Socket) => void));
    const error = await startFailure({ MQTT_PORT: String(port) });
    expect(error).toBeInstanceOf(PortInUseError);
    const message = (error as Error).message;
    expect(message).toContain(`Port ${port} (MQTT_PORT) is taken by an MQTT broker already running on this machine`);
    expect(message).toContain(`set MQTT_URL, e.g. MQTT_URL=mqtt://127.0.0.1:${port} npm start`);
    expect(message).toContain(`MQTT_PORT=${port + 1} npm start`);
  });

  it('taken by something that is not a broker: says to choose another MQTT_PORT, not to use it', async () => {
    const port = await occupy(net.createServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\n\r\n')));
    const error = await startFailure({ MQTT_PORT: String(port) });
    expect(error).toBeInstanceOf(PortInUseError);
    const message = (error as Error).message;
    expect(message).toContain(`Port ${port} (MQTT_PORT) is already in use by another program, which is not an MQTT broker.`);
    expect(message).toContain(`MQTT_PORT=${port + 1} npm start`);
    expect(message).not.toContain('MQTT_URL');
  });
});
