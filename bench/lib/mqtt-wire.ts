// The few MQTT 3.1.1 packets the saturation benchmark's load and receiver processes write and
// read on raw sockets (bench/saturation-load.ts, bench/saturation-receiver.ts). Hand-encoded so
// that the hot path is a buffer copy, not a client library: the load must never be what limits
// the rate being measured.

/** MQTT control packet types used here (the high nibble of the first byte). */
export const PacketType = { connack: 2, publish: 3, puback: 4, suback: 9, pingresp: 13 } as const;

/** One packet read off the wire: its type, the flags nibble and its variable header + payload. */
export type Frame = { type: number; flags: number; body: Buffer };

function remainingLength(length: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

function utf8Field(text: string | Buffer): Buffer {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function packet(first: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([first]), remainingLength(body.length), body]);
}

/**
 * CONNECT, clean session, keep-alive off (the benchmark's sockets are never idle long enough to
 * need pings), with a username and password and optionally a QoS 1 last will.
 */
export function connectPacket(options: { clientId: string; username?: string; password?: string; will?: { topic: string; payload: string } }): Buffer {
  const { clientId, username, password, will } = options;
  let flags = 0x02;
  if (will) flags |= 0x04 | (1 << 3);
  if (username !== undefined) flags |= 0x80;
  if (password !== undefined) flags |= 0x40;
  const parts = [utf8Field('MQTT'), Buffer.from([4, flags, 0, 0]), utf8Field(clientId)];
  if (will) parts.push(utf8Field(will.topic), utf8Field(will.payload));
  if (username !== undefined) parts.push(utf8Field(username));
  if (password !== undefined) parts.push(utf8Field(password));
  return packet(0x10, Buffer.concat(parts));
}

/** SUBSCRIBE to one topic filter. */
export function subscribePacket(messageId: number, filter: string, qos: 0 | 1): Buffer {
  const id = Buffer.alloc(2);
  id.writeUInt16BE(messageId);
  return packet(0x82, Buffer.concat([id, utf8Field(filter), Buffer.from([qos])]));
}

/** PUBLISH at QoS 0 (no message id) or QoS 1. */
export function publishPacket(topic: string, payload: string, qos: 0 | 1, messageId = 0): Buffer {
  const parts = [utf8Field(topic)];
  if (qos === 1) {
    const id = Buffer.alloc(2);
    id.writeUInt16BE(messageId);
    parts.push(id);
  }
  parts.push(Buffer.from(payload));
  return packet(qos === 1 ? 0x32 : 0x30, Buffer.concat(parts));
}

/** PUBACK for a QoS 1 message received. */
export function pubackPacket(messageId: number): Buffer {
  return Buffer.from([0x40, 2, messageId >> 8, messageId & 0xff]);
}

/** The DISCONNECT packet (a clean goodbye: no last will). */
export const DISCONNECT = Buffer.from([0xe0, 0]);

/**
 * Splits a byte stream into MQTT packets: `push` each chunk read, and `onFrame` is called once
 * per complete packet, in order.
 */
export function frameReader(onFrame: (frame: Frame) => void): (chunk: Buffer) => void {
  let pending: Buffer | null = null;
  return (chunk) => {
    let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    for (;;) {
      if (buffer.length - offset < 2) break;
      let length = 0;
      let multiplier = 1;
      let cursor = offset + 1;
      let complete = false;
      while (cursor < buffer.length && cursor - offset <= 4) {
        const byte = buffer[cursor++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || buffer.length - cursor < length) break;
      const first = buffer[offset]!;
      onFrame({ type: first >> 4, flags: first & 0x0f, body: buffer.subarray(cursor, cursor + length) });
      offset = cursor + length;
    }
    if (offset >= buffer.length) pending = null;
    else {
      buffer = buffer.subarray(offset);
      pending = Buffer.from(buffer);
    }
  };
}

/** A received PUBLISH's topic, message id (0 at QoS 0) and payload. */
export function readPublish(frame: Frame): { topic: string; messageId: number; payload: Buffer } {
  const topicLength = frame.body.readUInt16BE(0);
  const topic = frame.body.toString('utf8', 2, 2 + topicLength);
  const qos = (frame.flags >> 1) & 0x03;
  const messageId = qos > 0 ? frame.body.readUInt16BE(2 + topicLength) : 0;
  return { topic, messageId, payload: frame.body.subarray(2 + topicLength + (qos > 0 ? 2 : 0)) };
}
