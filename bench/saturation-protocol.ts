// The fork IPC messages between the saturation benchmark (saturation.bench.ts), its load
// processes (saturation-load.ts) and its receiver process (saturation-receiver.ts), and the prop
// change every load message carries.
import type { FleetBoard } from './hardware-protocol.js';

/** Which server a set of connections or a receiver talks to: Plinth's embedded broker, or bare aedes. */
export type Side = 'plinth' | 'broker';

/** Digits of the per-board sequence number in every prop change (zero-padded: one packet length per board). */
export const SEQUENCE_DIGITS = 10;

/**
 * The prop-change payload of the hardware protocol (docs/protocols/hardware-mqtt.md, `prop`) on
 * the simulator's text peripheral; the value is the board's sequence number, counted from 1.
 */
export function propPayload(sequence: number): string {
  return JSON.stringify({ peripheralId: 'text1', propName: 'text', value: String(sequence).padStart(SEQUENCE_DIGITS, '0') });
}

/** What the benchmark tells a load process. */
export type ToLoad =
  /** Open one connection per board to `url` as that board (status, announce, subscribe to cmd). */
  | { type: 'connect'; side: Side; url: string; boards: FleetBoard[] }
  /** Every connection of `side` keeps `window` prop changes in flight (QoS 1, until its PUBACK). */
  | { type: 'start'; side: Side; window: number }
  /** Stop sending on `side`; answer `stopped` once every message in flight is acknowledged. */
  | { type: 'stop'; side: Side }
  /** Close the connections of `side` (DISCONNECT, then end). */
  | { type: 'disconnect'; side: Side }
  | { type: 'close' };

/** What a load process reports back. */
export type FromLoad =
  | { type: 'connected'; side: Side; ready: number; failed: number; errors: string[] }
  /** Prop changes sent since the last `start`, and those still unacknowledged when it gave up waiting. */
  | { type: 'stopped'; side: Side; sent: number; unacknowledged: number }
  | { type: 'disconnected'; side: Side };

/** What the benchmark tells the receiver process. */
export type ToReceiver =
  /** Plinth: a console socket on `/ws` signed in with `cookie`, subscribed to every board. */
  | { type: 'open-console'; url: string; cookie: string; hardwareIds: string[] }
  /** The bare broker: a plain MQTT subscriber to every board's `prop` topic (QoS 0). */
  | { type: 'open-subscriber'; url: string }
  | { type: 'close-console' }
  | { type: 'close-subscriber' }
  /** New connections whose sequence numbers start again at 1: forget each board's last one. */
  | { type: 'reset'; side: Side }
  | { type: 'count'; side: Side }
  | { type: 'close' };

/** What the receiver reports back. */
export type FromReceiver =
  | { type: 'opened'; side: Side }
  | { type: 'failed'; side: Side; error: string }
  /**
   * Totals of `side` since the receiver opened it: prop changes received, those that came with a
   * sequence number at or below one already seen for their board (reordered or duplicated), and
   * the receiver's clock (performance.now(), ms) when it counted.
   */
  | { type: 'count'; side: Side; received: number; reordered: number; at: number };
