import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ExhibitConnection } from './exhibit-connection.js';

/** An open socket that keeps what is sent (the connection only calls send and reads readyState). */
function recordingSocket() {
  const sent: unknown[] = [];
  const socket = { OPEN: 1, readyState: 1, send: (text: string) => sent.push(JSON.parse(text)) } as unknown as WebSocket;
  return { socket, sent };
}

describe('ExhibitConnection.writeUnlessNewer (values re-sent after the realtime link was down)', () => {
  it('writes a value read from the database unless a message of the same value was written since it was read', () => {
    const { socket, sent } = recordingSocket();
    const connection = new ExhibitConnection(socket, { remoteAddress: '127.0.0.1', now: 0 });
    connection.write({ type: 'setting.changed', settingId: 'a', value: 'a1', version: 1 });
    const mark = connection.writes;
    // Saved elsewhere after the read and delivered first: the read value (older) must not follow it.
    connection.write({ type: 'setting.changed', settingId: 'a', value: 'a3', version: 3 });
    expect(connection.writeUnlessNewer({ type: 'setting.changed', settingId: 'a', value: 'a2', version: 2 }, mark)).toBe(false);
    // Other values are written.
    expect(connection.writeUnlessNewer({ type: 'setting.changed', settingId: 'b', value: 'b2', version: 2 }, mark)).toBe(true);
    expect(connection.writeUnlessNewer({ type: 'opMode.changed', opMode: 'On' }, mark)).toBe(true);
    expect(sent.map((m) => (m as { value?: unknown; opMode?: unknown }).value ?? (m as { opMode?: unknown }).opMode)).toEqual(['a1', 'a3', 'b2', 'On']);
  });

  it('writes nothing read before a whole sync was written', () => {
    const { socket, sent } = recordingSocket();
    const connection = new ExhibitConnection(socket, { remoteAddress: '127.0.0.1', now: 0 });
    const mark = connection.writes;
    connection.write({ type: 'exhibit.synced', opMode: 'On', settings: [], settingLists: [], statuses: [] });
    expect(connection.writeUnlessNewer({ type: 'settingList.changed', listId: 'l', items: [] }, mark)).toBe(false);
    expect(connection.writeUnlessNewer({ type: 'opMode.changed', opMode: 'Off' }, mark)).toBe(false);
    expect(sent).toHaveLength(1);
  });
});
