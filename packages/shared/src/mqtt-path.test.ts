import { describe, expect, it } from 'vitest';
import { isValidMqttPath } from './mqtt-path.js';

describe('exhibit MQTT address', () => {
  it.each(['', '{ip}:0', '192.168.1.20:1883', '0.0.0.0:1', '255.255.255.255:65535'])('accepts %j', (value) => {
    expect(isValidMqttPath(value)).toBe(true);
  });
  it.each(['192.168.1.20', '192.168.1.256:1883', '1.2.3.4:0', '1.2.3.4:65536', '1.2.3:80', 'host:1883', ' 1.2.3.4:80', '1.2.3.4:80x'])(
    'refuses %j',
    (value) => {
      expect(isValidMqttPath(value)).toBe(false);
    },
  );
});
