// The hot payloads' checks, zod against the validators compiled from the same contracts
// (packages/shared/src/compiled-schema.ts), and the whole read of a board's payload
// (`parsePayload`: UTF-8, JSON, unsafe text, schema) with each. In-process, single-threaded,
// a few seconds. docs/performance.md, "Saturation", reports the figures.
//
//   npm run bench -- validators                  default: 1,000,000 calls each
//   npm run bench -- validators --calls 200000
import fs from 'node:fs';
import type { z } from 'zod';
import { compileSchema, HeartbeatMessageSchema, parsePayload, PropMessageSchema, SdkMessageSchema } from '@plinth/shared';
import { positiveNumber, readFlags } from './lib/options.js';

const values = readFlags({ calls: { type: 'string' } });
const calls = positiveNumber(values.calls, process.env.BENCH_CALLS, 1_000_000, '--calls');

const payloads: { name: string; schema: z.ZodType; text: string }[] = [
  { name: 'board prop change', schema: PropMessageSchema, text: '{"peripheralId":"text1","propName":"text","value":"0000000042"}' },
  { name: 'board heartbeat', schema: HeartbeatMessageSchema, text: '{"voltage":5.1,"temp":40,"uptime":12,"exhibitState":"ok","exhibitIP":"10.0.0.2"}' },
  { name: 'exhibit status', schema: SdkMessageSchema, text: '{"type":"status","id":"count","value":"0000000042"}' },
];

/** Nanoseconds a call, after a warm-up of a fifth as many calls. */
function timeCalls(run: () => unknown): number {
  let sink: unknown;
  for (let i = 0; i < calls / 5; i++) sink = run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink = run();
  const elapsed = Number(process.hrtime.bigint() - started) / calls;
  if (sink === undefined) throw new Error('a check answered nothing');
  return elapsed;
}

const figures: { label: string; value: string }[] = [];
console.log(`Checks of the hot payloads, ${calls.toLocaleString('en-US')} calls each (ns a call)\n`);
console.log('| payload | zod safeParse | compiled | parsePayload with zod | parsePayload compiled |');
console.log('|---|---|---|---|---|');
for (const { name, schema, text } of payloads) {
  const compiled = compileSchema(schema);
  const parsed: unknown = JSON.parse(text);
  const bytes = Buffer.from(text);
  if (!compiled.safeParse(parsed).success || !schema.safeParse(parsed).success) throw new Error(`${name}: the sample payload does not fit its schema`);
  const zodNs = timeCalls(() => schema.safeParse(parsed));
  const compiledNs = timeCalls(() => compiled.safeParse(parsed));
  const payloadZodNs = timeCalls(() => parsePayload(schema, bytes));
  const payloadCompiledNs = timeCalls(() => parsePayload(compiled, bytes));
  console.log(`| ${name} | ${zodNs.toFixed(0)} | ${compiledNs.toFixed(0)} | ${payloadZodNs.toFixed(0)} | ${payloadCompiledNs.toFixed(0)} |`);
  figures.push(
    { label: `${name}: zod / compiled check`, value: `${zodNs.toFixed(0)} / ${compiledNs.toFixed(0)} ns` },
    { label: `${name}: whole payload read, zod / compiled`, value: `${payloadZodNs.toFixed(0)} / ${payloadCompiledNs.toFixed(0)} ns` },
  );
}
if (process.env.BENCH_RESULTS_FILE) fs.writeFileSync(process.env.BENCH_RESULTS_FILE, JSON.stringify({ name: 'validators', options: { calls }, figures }, null, 2));
