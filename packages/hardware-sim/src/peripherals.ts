import type { BoardPeripheral } from '@plinth/shared';

/** How a prop is declared here: its type and first value, and what the board announces about it (all optional). */
type PropDeclaration = {
  type: string;
  value: string | number;
  settable?: boolean;
  hide?: boolean;
  min?: number;
  max?: number;
  displayType?: string;
};

/** A prop as the board announces it (booleans as the strings the protocol uses). */
const prop = (name: string, { type, value, ...extra }: PropDeclaration) => ({
  name,
  type,
  value,
  settable: String(extra.settable ?? false),
  hide: String(extra.hide ?? false),
  min: extra.min ?? null,
  max: extra.max ?? null,
  displayType: extra.displayType ?? null,
});

/**
 * One peripheral of every kind the spec names (button, trigger, switch, relay, text, bool, pwm,
 * led, addressable led, color, byte, int32), with props of every prop type.
 */
export function defaultPeripherals(): BoardPeripheral[] {
  return [
    { id: 'button1', name: 'Button', type: 'button', props: [prop('state', { type: 'button', value: 0 })] },
    { id: 'trigger1', name: 'Trigger', type: 'trigger', props: [prop('fire', { type: 'trigger', value: 0, settable: true })] },
    { id: 'switch1', name: 'Switch', type: 'switch', props: [prop('state', { type: 'toggle', value: 0 })] },
    { id: 'relay1', name: 'Relay', type: 'relay', props: [prop('state', { type: 'toggle', value: 0, settable: true })] },
    { id: 'text1', name: 'Display Text', type: 'text', props: [prop('text', { type: 'text', value: 'hello', settable: true, max: 33 })] },
    { id: 'bool1', name: 'Flag', type: 'bool', props: [prop('value', { type: 'toggle', value: 1, settable: true })] },
    {
      id: 'pwm1',
      name: 'PWM',
      type: 'pwm',
      props: [
        prop('duty', { type: 'uint', value: 128, settable: true, min: 0, max: 255, displayType: 'uint' }),
        prop('frequency', { type: 'uint', value: 1000, hide: true }),
      ],
    },
    { id: 'led1', name: 'LED', type: 'led', props: [prop('color', { type: 'led', value: '255,0,0,0', settable: true })] },
    {
      id: 'strip1',
      name: 'LED Strip',
      type: 'addressable led',
      props: [
        prop('pixel', { type: 'addressable_led', value: '0,255,0,0,255,0', settable: true, max: 59 }),
        prop('count', { type: 'uint', value: 60, hide: true }),
      ],
    },
    { id: 'color1', name: 'Colour', type: 'color', props: [prop('rgb', { type: 'led', value: '255,255,128,0', settable: true })] },
    {
      id: 'byte1',
      name: 'Byte',
      type: 'byte',
      props: [prop('value', { type: 'uint', value: 0x2a, settable: true, min: 0, max: 255, displayType: 'hex' })],
    },
    {
      id: 'int1',
      name: 'Int32',
      type: 'int32',
      props: [
        prop('value', { type: 'int', value: -5, settable: true, min: -2147483648, max: 2147483647, displayType: 'int' }),
        prop('reading', { type: 'number', value: 21.5 }),
      ],
    },
  ];
}
