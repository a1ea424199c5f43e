import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { quietDebug, type CreateDebug } from './quiet-debug.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const createDebug = require('debug') as CreateDebug & { enable: (names: string) => void; disable: () => string };

describe('quietDebug', () => {
  let before = '';
  afterEach(() => createDebug.enable(before));

  it('answers a function that does nothing for a namespace that is off, and the package’s own for one that is on', () => {
    before = createDebug.disable();
    createDebug.enable('plinth-test:on*');
    const quiet = quietDebug(createDebug);

    const off = quiet('plinth-test:off');
    expect(off.enabled).toBe(false);
    expect(off.namespace).toBe('plinth-test:off');
    expect(off('a %s', 'message')).toBeUndefined();
    expect('useColors' in off).toBe(false);

    const on = quiet('plinth-test:on');
    expect(on.enabled).toBe(true);
    expect('useColors' in on).toBe(true);
    const lines: unknown[][] = [];
    Object.assign(on, { log: (...args: unknown[]) => lines.push(args) });
    on('a %s', 'message');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.join(' ')).toContain('plinth-test:on a %s message');

    // Extended namespaces follow the same rule.
    expect(quiet('plinth-test:off').extend('more').enabled).toBe(false);
    expect('useColors' in quiet('plinth-test:off').extend('more')).toBe(false);
    expect(quiet('plinth-test:on').extend('more').enabled).toBe(true);
    // The package's settings stay its own.
    expect((quiet as unknown as { enable: unknown }).enable).toBe((createDebug as unknown as { enable: unknown }).enable);
  });
});

/**
 * A process that installs the quiet export, records what every later `debug(namespace)` call
 * answers, loads aedes's MQTT packet parser and parses a PUBLISH; it prints what the parser's
 * namespaces got and whether the parser still parsed.
 */
const PARSE = `
import { createRequire } from 'node:module';
const { installQuietDebug } = await import(${JSON.stringify(new URL('./quiet-debug.ts', import.meta.url).href)});
const installed = [installQuietDebug(), installQuietDebug()];
const fromAedes = createRequire(createRequire(${JSON.stringify(import.meta.url)}).resolve('aedes'));
const loaded = fromAedes.cache[fromAedes.resolve('debug')];
const quiet = loaded.exports;
const made = {};
loaded.exports = new Proxy(quiet, { apply: (target, self, args) => {
  const fn = Reflect.apply(target, self, args);
  made[args[0]] = { enabled: fn.enabled, packages: 'useColors' in fn };
  return fn;
} });
const mqttPacket = fromAedes('mqtt-packet');
const parser = mqttPacket.parser();
const packets = [];
parser.on('packet', (packet) => packets.push(packet.topic));
parser.parse(mqttPacket.generate({ cmd: 'publish', topic: 'a/b', payload: 'x', qos: 1, messageId: 7 }));
console.log(JSON.stringify({ installed, made, packets }));
`;

async function parseInChild(debug: string) {
  const env = { ...process.env, DEBUG: debug };
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', PARSE], { env });
  return { ...(JSON.parse(stdout) as { installed: boolean[]; made: Record<string, { enabled: boolean; packages: boolean }>; packets: string[] }), stderr };
}

describe('installQuietDebug', () => {
  it('gives aedes’s packet parser quiet functions when DEBUG is empty, once', async () => {
    const { installed, made, packets, stderr } = await parseInChild('');
    expect(installed).toEqual([true, false]);
    expect(made['mqtt-packet:parser']).toEqual({ enabled: false, packages: false });
    expect(made['mqtt-packet:writeToStream']).toEqual({ enabled: false, packages: false });
    expect(packets).toEqual(['a/b']);
    expect(stderr).not.toContain('mqtt-packet');
  }, 60_000);

  it('leaves the namespaces DEBUG names to the package: the parser still prints', async () => {
    const { made, packets, stderr } = await parseInChild('mqtt-packet:parser');
    expect(made['mqtt-packet:parser']).toEqual({ enabled: true, packages: true });
    expect(made['mqtt-packet:writeToStream']).toEqual({ enabled: false, packages: false });
    expect(packets).toEqual(['a/b']);
    expect(stderr).toContain('mqtt-packet:parser');
  }, 60_000);
});
