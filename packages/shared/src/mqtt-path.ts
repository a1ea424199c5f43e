/** The message shown for an invalid exhibit MQTT address (spec document 2, section 5). */
export const MQTT_PATH_MESSAGE =
  'IP address and Port numbers must be valid and of the form: ###.###.###.###:####';

/**
 * An exhibit's MQTT address is empty, '{ip}:0', or four dot-separated numbers 0 to 255 and a
 * port 1 to 65535 after a colon.
 */
export function isValidMqttPath(value: string): boolean {
  if (value === '' || value === '{ip}:0') return true;
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(value);
  if (!match) return false;
  const octets = match.slice(1, 5).map(Number);
  const port = Number(match[5]);
  return octets.every((o) => o >= 0 && o <= 255) && port >= 1 && port <= 65535;
}
