import { describe, expect, it } from 'vitest';
import { BOARD_CHANNELS, hardwareTopic, hardwareTopicPrefix, isBoardChannelTopic, parseHardwareTopic, SERVER_CHANNELS } from './mqtt-protocol.js';

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

describe('isBoardChannelTopic', () => {
  const id = '0b7c1f7e-2d4f-4c55-9a0e-58a9d3e0c8a1';
  const other = '9d1c2b3a-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
  const prefix = hardwareTopicPrefix(id);
  /** The rule written the plain way: the set of the board's own channel topics. */
  const own = new Set(BOARD_CHANNELS.map((channel) => hardwareTopic(id, channel)));

  it("takes each of the board's own channels, and neither its command topic nor another board's", () => {
    for (const channel of BOARD_CHANNELS) expect(isBoardChannelTopic(hardwareTopic(id, channel), prefix), channel).toBe(true);
    for (const channel of SERVER_CHANNELS) expect(isBoardChannelTopic(hardwareTopic(id, channel), prefix), channel).toBe(false);
    for (const channel of BOARD_CHANNELS) expect(isBoardChannelTopic(hardwareTopic(other, channel), prefix), channel).toBe(false);
  });

  it('agrees with the set of own topics on every topic made of a few parts', () => {
    const pieces = ['plinth', 'hw', id, other, '', ...BOARD_CHANNELS, 'cmd', 'props', 'xprop', 'pro', 'log/'];
    let checked = 0;
    for (const a of ['plinth', 'x'])
      for (const b of ['hw', 'hwx'])
        for (const c of pieces)
          for (const d of pieces)
            for (const tail of ['', '/', '/x', 'x']) {
              const topic = `${a}/${b}/${c}/${d}${tail}`;
              expect(isBoardChannelTopic(topic, prefix), topic).toBe(own.has(topic));
              checked += 1;
            }
    expect(checked).toBe(2 * 2 * pieces.length ** 2 * 4);
  });
});
