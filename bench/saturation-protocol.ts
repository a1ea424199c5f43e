// The fork IPC messages between the saturation benchmark (saturation.bench.ts), its load
// processes (saturation-load.ts for boards, saturation-exhibit-load.ts for SDK exhibits) and its
// receiver process (saturation-receiver.ts), the prop change every board message carries and the
// status every exhibit message carries.
import type { ManifestInput } from '@plinth/shared';
import type { FleetBoard } from './hardware-protocol.js';

/**
 * Which server a set of connections or a receiver talks to: one Plinth node (its embedded broker,
 * or a Mosquitto it manages through MQTT_URL), two Plinth nodes sharing a Mosquitto (`cluster`),
 * or the bare broker (aedes or Mosquitto) alone.
 */
export type Side = 'plinth' | 'cluster' | 'broker';

/** The sides a console socket on `/ws` receives: Plinth's. */
export type PlinthSide = Exclude<Side, 'broker'>;

/** What the receiver counts: the boards' prop changes on either side, or the exhibits' statuses (Plinth only). */
export type Stream = Side | 'exhibit';

/** Digits of the per-board sequence number in every prop change (zero-padded: one packet length per board). */
export const SEQUENCE_DIGITS = 10;

/**
 * The prop-change payload of the hardware protocol (docs/protocols/hardware-mqtt.md, `prop`) on
 * the simulator's text peripheral; the value is the board's sequence number, counted from 1.
 */
export function propPayload(sequence: number): string {
  return JSON.stringify({ peripheralId: 'text1', propName: 'text', value: String(sequence).padStart(SEQUENCE_DIGITS, '0') });
}

/** Writes `sequence` as SEQUENCE_DIGITS ASCII digits (zero-padded) into `buffer` at `offset`: a message template reused in place. */
export function writeSequence(buffer: Buffer, offset: number, sequence: number): void {
  for (let d = SEQUENCE_DIGITS - 1; d >= 0; d--) {
    buffer[offset + d] = 48 + (sequence % 10);
    sequence = Math.floor(sequence / 10);
  }
}

/** The one status every exhibit of the benchmark declares and sends: text, so that its digits keep one length. */
export const EXHIBIT_STATUS_ID = 'sequence';

export const EXHIBIT_MANIFEST: ManifestInput = {
  statuses: [{ id: EXHIBIT_STATUS_ID, type: 'String', display: 'Saturation sequence number' }],
  controls: [],
  settings: [],
};

/**
 * The SDK's status message (docs/protocols/exhibit-sdk.md, `status {id, value}`); the value is the
 * exhibit's sequence number, counted from 1. Built once per connection: the digits are rewritten
 * in place, SEQUENCE_DIGITS before its last two characters (`"}`).
 */
export function statusMessage(sequence: number): string {
  return JSON.stringify({ type: 'status', id: EXHIBIT_STATUS_ID, value: String(sequence).padStart(SEQUENCE_DIGITS, '0') });
}

/** Bytes of one status as a masked WebSocket frame from a client: 2 bytes of header and 4 of mask before the text (under 126 bytes). */
export const STATUS_FRAME_BYTES = Buffer.byteLength(statusMessage(0)) + 6;

/** What the benchmark tells a load process. */
export type ToLoad =
  /** Open one connection per board to `url` as that board (status, announce, subscribe to cmd). */
  | { type: 'connect'; side: Side; url: string; boards: FleetBoard[] }
  /**
   * Every connection of `side` keeps `window` prop changes in flight (QoS 1, until its PUBACK);
   * with `rate` (not 0), the process's connections together send at most that many a second.
   */
  | { type: 'start'; side: Side; window: number; rate: number }
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

/** One exhibit a load process connects as: its id and one of its tokens. */
export type LoadExhibit = { id: string; token: string };

/** What the benchmark tells an exhibit load process. */
export type ToExhibitLoad =
  /** Open one SDK socket per exhibit to the Plinth server at `url` (authenticate, auth, manifest, synced). */
  | { type: 'connect'; url: string; exhibits: LoadExhibit[] }
  /**
   * Every connection writes a status whenever its socket has fewer than `window` of them buffered
   * (TCP backpressure), and (unless 0) has fewer than `unanswered` beyond the last `pong`.
   */
  | { type: 'start'; window: number; unanswered: number }
  /** Answer `sent`: statuses written since the last `start`. */
  | { type: 'sent' }
  /** Stop writing, and answer `stopped` at once. */
  | { type: 'stop' }
  /** Close the connections (as the SDK's close does). */
  | { type: 'disconnect' }
  | { type: 'close' };

/** What an exhibit load process reports back. */
export type FromExhibitLoad =
  | { type: 'connected'; ready: number; failed: number; errors: string[] }
  | { type: 'sent'; sent: number }
  /** Statuses written since the last `start`, sockets that closed meanwhile, and `error` messages the server answered. */
  | { type: 'stopped'; sent: number; closed: number; refused: number; errors: string[] }
  | { type: 'disconnected' };

/** What the benchmark tells the receiver process. */
export type ToReceiver =
  /** Plinth (`side`): a console socket on `/ws` signed in with `cookie`, subscribed to every board. */
  | { type: 'open-console'; side: PlinthSide; url: string; cookie: string; hardwareIds: string[] }
  /** The bare broker (aedes or Mosquitto): a plain MQTT subscriber to every board's `prop` topic (QoS 0). */
  | { type: 'open-subscriber'; url: string }
  /** Plinth's exhibits: a second console socket on `/ws`, signed in with `cookie`, subscribed to every exhibit. */
  | { type: 'open-exhibit-console'; url: string; cookie: string; exhibitIds: string[] }
  | { type: 'close-console'; side: PlinthSide }
  | { type: 'close-exhibit-console' }
  | { type: 'close-subscriber' }
  /** New connections whose sequence numbers start again at 1: forget each board's (or exhibit's) last one. */
  | { type: 'reset'; side: Stream }
  | { type: 'count'; side: Stream }
  | { type: 'close' };

/** What the receiver reports back. */
export type FromReceiver =
  | { type: 'opened'; side: Stream }
  | { type: 'failed'; side: Stream; error: string }
  /**
   * Totals of `side` since the receiver opened it: prop changes (or statuses) received, those
   * that came with a sequence number at or below one already seen for their board or exhibit
   * (reordered or duplicated), the numbers skipped over (a value arrived more than one above the
   * last seen: the values between were merged away by the server's slow-console outbox, or lost),
   * how often the console was told its server's link to Redis was lost (`realtime.status`, not
   * live: events of that time are missing), and the receiver's clock (performance.now(), ms) when it counted.
   */
  | { type: 'count'; side: Stream; received: number; reordered: number; skipped: number; linkLost: number; at: number };
