import { describe, expect, it } from 'vitest';
import { hardwareTopic, parseHardwareTopic } from './mqtt-protocol.js';

/** What the topic rule says, written the plain way: four parts, the root's two, then an id and a channel, none empty. */
function reference(topic: string): { hardwareId: string; channel: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'plinth' || parts[1] !== 'hw' || !parts[2] || !parts[3]) return null;
  return { hardwareId: parts[2], channel: parts[3] };
}

describe('parseHardwareTopic', () => {
  it('reads the board and the channel of a hardware topic', () => {
    const id = '0b7c1f7e-2d4f-4c55-9a0e-58a9d3e0c8a1';
    expect(parseHardwareTopic(hardwareTopic(id, 'prop'))).toEqual({ hardwareId: id, channel: 'prop' });
  });

  it.each(['plinth/hw', 'plinth/hw/', 'plinth/hw/id', 'plinth/hw/id/', 'plinth/hw//prop', 'plinth/hw/id/prop/more', 'plinth/hwx/id/prop', 'other/hw/id/prop', '/plinth/hw/id/prop', ''])(
    'refuses %j',
    (topic) => {
      expect(parseHardwareTopic(topic)).toBeNull();
    },
  );

  it('agrees with the rule on every topic made of a few parts', () => {
    const pieces = ['plinth', 'hw', 'id', '', 'prop', 'hwx', 'a/b'];
    let checked = 0;
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces)
          for (const d of pieces)
            for (const tail of ['', '/', '/x']) {
              const topic = `${a}/${b}/${c}/${d}${tail}`;
              expect(parseHardwareTopic(topic), topic).toEqual(reference(topic));
              checked += 1;
            }
    expect(checked).toBe(7 ** 4 * 3);
  });
});
