// The embedded broker's own work a board message, without sockets: MQTT's packet parser reads a
// board's QoS 1 prop change and writes its PUBACK, for 2,000 connections (one parser each),
// with the `debug` package as installed and with the server's quiet export in its place
// (apps/server/src/lib/quiet-debug.ts). Each side runs in its own process (the export is put in
// place before the parser loads), alternating, and each side's best round counts.
// docs/performance.md, "Debug calls that were off", reports the figures.
//
//   npm run bench -- mqtt-packets                    default: 3 rounds a side of 1,000,000 messages
//   npm run bench -- mqtt-packets --rounds 5 --messages 200000
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { installQuietDebug } from '../apps/server/src/lib/quiet-debug.js';
import { positiveNumber, readFlags } from './lib/options.js';

type Packet = { cmd: string; topic?: string; payload?: string; qos?: 0 | 1; messageId?: number };
type Parser = { parse: (buffer: Buffer) => number; on: (event: 'packet', listener: (packet: Packet) => void) => void };
type MqttPacket = { parser: () => Parser; generate: (packet: Packet) => Buffer; writeToStream: (packet: Packet, stream: Writable) => boolean };

const CONNECTIONS = 2000;
const values = readFlags({ rounds: { type: 'string' }, messages: { type: 'string' }, child: { type: 'string' } });
const rounds = positiveNumber(values.rounds, undefined, 3, 'rounds');
const messages = positiveNumber(values.messages, undefined, 1_000_000, 'messages');

/** One side's round, in this process: nanoseconds a message (parse and PUBACK). */
function measure(quiet: boolean): number {
  if (quiet) installQuietDebug();
  // The parser aedes itself loads.
  const fromAedes = createRequire(createRequire(import.meta.url).resolve('aedes'));
  const mqttPacket = fromAedes('mqtt-packet') as MqttPacket;
  let parsed = 0;
  const parsers = Array.from({ length: CONNECTIONS }, () => {
    const parser = mqttPacket.parser();
    parser.on('packet', () => (parsed += 1));
    return parser;
  });
  const packets = parsers.map((_, i) =>
    mqttPacket.generate({
      cmd: 'publish',
      topic: `hardware/0190c3a5-8f7e-7cc4-a6e2-${String(i).padStart(12, '0')}/prop`,
      payload: JSON.stringify({ peripheralId: 'text1', propName: 'text', value: String(i).padStart(10, '0') }),
      qos: 1,
      messageId: i + 1,
    }),
  );
  const socket = new Writable({ write: (_chunk, _encoding, done) => done() });
  const run = (count: number) => {
    for (let n = 0; n < count; n++) {
      const i = n % CONNECTIONS;
      parsers[i]!.parse(packets[i]!);
      mqttPacket.writeToStream({ cmd: 'puback', messageId: i + 1 }, socket);
    }
  };
  run(Math.ceil(messages / 10));
  const before = parsed;
  const started = process.hrtime.bigint();
  run(messages);
  const elapsed = Number(process.hrtime.bigint() - started);
  if (parsed - before !== messages) throw new Error(`parsed ${parsed - before} of ${messages} packets`);
  return elapsed / messages;
}

if (values.child) {
  console.log(JSON.stringify({ ns: measure(values.child === 'quiet') }));
} else {
  const run = promisify(execFile);
  const side = async (mode: 'stock' | 'quiet') => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--child', mode, '--messages', String(messages)]);
    return (JSON.parse(stdout) as { ns: number }).ns;
  };
  const best = { stock: Infinity, quiet: Infinity };
  for (let round = 1; round <= rounds; round++) {
    for (const mode of ['stock', 'quiet'] as const) best[mode] = Math.min(best[mode], await side(mode));
    console.log(`round ${round}: debug as installed ${(best.stock / 1000).toFixed(2)} µs, quiet ${(best.quiet / 1000).toFixed(2)} µs a message (best so far)`);
  }
  const figures = [
    { label: 'parse a QoS 1 prop change and write its PUBACK, debug as installed', value: `${(best.stock / 1000).toFixed(2)} µs` },
    { label: 'the same with the quiet debug export (the server)', value: `${(best.quiet / 1000).toFixed(2)} µs` },
    { label: 'saved a message', value: `${((best.stock - best.quiet) / 1000).toFixed(2)} µs (${((100 * (best.stock - best.quiet)) / best.stock).toFixed(0)}%)` },
  ];
  console.log(`\nMQTT packets, ${CONNECTIONS.toLocaleString('en-US')} connections, ${messages.toLocaleString('en-US')} messages a round, best of ${rounds} a side`);
  for (const { label, value } of figures) console.log(`  ${label}: ${value}`);
  if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'mqtt-packets', options: { rounds, messages }, figures }, null, 2));
}
