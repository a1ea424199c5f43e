import type { AppDeps } from '../deps.js';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-broker.js';

/**
 * The hardware side: the MQTT broker (embedded aedes, or MQTT_URL) and the board protocol.
 * Filled in by the hardware work; for now it only runs the embedded broker.
 */
export type HardwareGateway = {
  /** The embedded broker's port, or null when an external broker is used. */
  mqttPort: number | null;
  close: () => Promise<void>;
};

export async function startHardwareGateway(deps: AppDeps): Promise<HardwareGateway> {
  let broker: EmbeddedBroker | null = null;
  if (!deps.config.MQTT_URL) {
    broker = await startEmbeddedBroker({ port: deps.config.MQTT_PORT, host: deps.config.MQTT_HOST, logger: deps.logger });
  }
  return { mqttPort: broker?.port ?? null, close: async () => broker?.close() };
}
