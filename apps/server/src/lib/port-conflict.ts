import net from 'node:net';

/** Which of Plinth's listeners could not take its port, and the variable that sets it. */
export type PortUse = 'http' | 'mqtt' | 'metrics';

const VARIABLES: Record<PortUse, string> = { http: 'PORT', mqtt: 'MQTT_PORT', metrics: 'METRICS_PORT' };

/**
 * A port Plinth needs is taken. The message is plain text a newcomer can act on: which port,
 * which variable moves it, and for the MQTT port whether the program there is an MQTT broker,
 * which Plinth can use instead of its embedded one.
 */
export class PortInUseError extends Error {
  constructor(
    readonly use: PortUse,
    message: string,
  ) {
    super(message);
  }
}

/** Listens `server` on host:port; a taken port rejects with a PortInUseError that says what to do. */
export async function listenOrExplain(server: net.Server, target: { use: PortUse; port: number; host: string }): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(target.port, target.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw await describePortInUse(target);
  }
}

/** The error for a port already in use, after asking the MQTT port whether a broker answers there. */
export async function describePortInUse(target: { use: PortUse; port: number; host: string }): Promise<PortInUseError> {
  const { use, port } = target;
  const variable = VARIABLES[use];
  const other = port + 1;
  if (use === 'mqtt') {
    const probeHost = target.host === '0.0.0.0' || target.host === '::' ? '127.0.0.1' : target.host;
    if (await isMqttBroker(probeHost, port)) {
      return new PortInUseError(
        use,
        [
          `Port ${port} (MQTT_PORT) is taken by an MQTT broker already running on this machine (Mosquitto, EMQX or another Plinth).`,
          `To let Plinth use that broker instead of its embedded one, set MQTT_URL, e.g. MQTT_URL=mqtt://${probeHost}:${port} npm start`,
          "(Plinth provisions the boards' credentials into it: set it up as docs/protocols/hardware-mqtt.md, 'External Mosquitto', says).",
          `Or give the embedded broker another port: MQTT_PORT=${other} npm start`,
        ].join('\n'),
      );
    }
    return new PortInUseError(
      use,
      [
        `Port ${port} (MQTT_PORT) is already in use by another program, which is not an MQTT broker.`,
        `Stop that program, or give Plinth's embedded broker another port: MQTT_PORT=${other} npm start`,
      ].join('\n'),
    );
  }
  return new PortInUseError(
    use,
    [
      `Port ${port} (${variable}) is already in use by another program (perhaps another Plinth).`,
      `Stop that program, or start Plinth on another port: ${variable}=${other} npm start`,
    ].join('\n'),
  );
}

/** An MQTT 3.1.1 CONNECT with a random client id and a clean session (no credentials). */
function connectPacket(): Buffer {
  const clientId = Buffer.from(`plinth-probe-${Math.random().toString(36).slice(2, 10)}`);
  const variableHeader = Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x0a]);
  const payload = Buffer.concat([Buffer.from([clientId.length >> 8, clientId.length & 0xff]), clientId]);
  const remaining = variableHeader.length + payload.length;
  return Buffer.concat([Buffer.from([0x10, remaining]), variableHeader, payload]);
}

/**
 * Whether an MQTT broker answers on host:port: a CONNECT gets a CONNACK (accepted or refused,
 * e.g. for missing credentials, both say a broker is there).
 */
export function isMqttBroker(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    const finish = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.once('connect', () => socket.write(connectPacket()));
    socket.once('data', (data: Buffer) => finish(data[0] === 0x20));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });
}
