import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MQTT_PATH_MESSAGE, MqttPath, Name } from '@plinth/shared';
import { schemaResolver } from './schema-resolver';

describe('schemaResolver', () => {
  const validate = schemaResolver<{ name: string; mqttPath: string }>(z.object({ name: Name, mqttPath: MqttPath }));

  it('answers no errors for valid values', () => {
    expect(validate({ name: ' Star Dome ', mqttPath: '10.0.0.5:1883' })).toEqual({});
  });

  it("puts each failing field's shared message under its name", () => {
    const errors = validate({ name: '   ', mqttPath: '300.1.1.1:80' });
    expect(errors.mqttPath).toBe(MQTT_PATH_MESSAGE);
    expect(errors.name).toBe('must not be empty');
  });

  it('names nested fields by their dotted path', () => {
    const nested = schemaResolver<{ owner: { name: string } }>(z.object({ owner: z.object({ name: Name }) }));
    expect(Object.keys(nested({ owner: { name: '' } }))).toEqual(['owner.name']);
  });

  it('refuses an asynchronous schema', () => {
    const slow = schemaResolver<{ name: string }>(z.object({ name: z.string().refine(async () => true) }));
    expect(() => slow({ name: 'x' })).toThrow(/asynchronous/);
  });
});
