import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedBoard, type BoardEvent } from '@plinth/hardware-sim';
import { freePort } from '../test/free-port.js';
import { waitUntil } from '../test/hardware-kit.js';

/**
 * Boards come back by themselves (issue 13): the simulator, as a library and as its command line,
 * keeps trying a broker that is down or restarting, with backoff and jitter, and says so; only a
 * refused credential stops it.
 */

const HARDWARE_ID = '0b6c0b52-8f0e-4f4e-9a55-1d7d1b1f0c11';
const GOOD = 'good-token';
const SIMULATOR_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../packages/hardware-sim/bin/plinth-hw-sim.js');
const SIMULATOR_LIBRARY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../packages/hardware-sim/dist/index.js');

type Broker = { port: number; close: () => Promise<void> };

/** A bare MQTT broker on `port` that takes the board's id with GOOD as its password. */
async function startBroker(port: number): Promise<Broker> {
  const broker = await Aedes.createBroker();
  broker.authenticate = (_client, username, password, done) => {
    const ok = username === HARDWARE_ID && password?.toString() === GOOD;
    done(ok ? null : Object.assign(new Error('Bad username or password'), { returnCode: 4 }), ok);
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    (broker.handle as (s: net.Socket) => void)(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function board(port: number, token = GOOD) {
  const events: BoardEvent[] = [];
  const lines: string[] = [];
  const b = new SimulatedBoard({ url: `mqtt://127.0.0.1:${port}`, hardwareId: HARDWARE_ID, token, heartbeatMs: 200, reconnectMs: 100, reconnectMaxMs: 400, log: (l) => lines.push(l) });
  b.on('event', (e) => events.push(e));
  cleanup.push(() => b.stop());
  return { b, events, lines };
}

describe('the simulated board reconnects by itself', () => {
  it('waits for a broker that is not there yet, and comes back after the broker restarts', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const { b, events, lines } = board(port);
    const started = b.start();
    await waitUntil(() => events.filter((e) => e.kind === 'reconnecting').length >= 2, 'two attempts while the broker is down');
    expect(lines.some((l) => /could not connect to mqtt:\/\/127\.0\.0\.1:\d+: .*; reconnecting in \d+\.\d s/.test(l))).toBe(true);
    // The waits grow (backoff) and stay within their bounds (jitter between half and all of the ceiling).
    const waits = events.flatMap((e) => (e.kind === 'reconnecting' ? [e.inMs] : []));
    expect(waits.every((ms) => ms >= 50 && ms <= 400)).toBe(true);

    let broker = await startBroker(port);
    cleanup.push(() => broker.close());
    await started;
    expect(b.connected).toBe(true);

    await broker.close();
    await waitUntil(() => events.at(-1)?.kind === 'reconnecting', 'the board noticed the broker left');
    expect(lines.some((l) => /the connection was lost; reconnecting in/.test(l))).toBe(true);
    broker = await startBroker(port);
    const connects = events.filter((e) => e.kind === 'connected').length;
    await waitUntil(() => events.filter((e) => e.kind === 'connected').length > connects, 'the board back after the restart');
    expect(b.connected).toBe(true);
  });

  it('stops at a refused credential, without retrying', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const broker = await startBroker(port);
    cleanup.push(() => broker.close());
    const { b, events } = board(port, 'wrong-token');
    await expect(b.start()).rejects.toThrow(/Bad username or password/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events.filter((e) => e.kind === 'reconnecting')).toEqual([]);
    expect(events.filter((e) => e.kind === 'refused')).toHaveLength(1);
  });

  it('lets the process end when stopped while its connection is still announcing', { timeout: 30_000 }, async () => {
    // The command line's Ctrl-C can land between "connected" and the heartbeat's start: the
    // heartbeat must not start for a stopped board, or its timer keeps the process alive forever.
    const port = await freePort();
    const broker = await startBroker(port);
    cleanup.push(() => broker.close());
    const script = [
      `import { SimulatedBoard } from ${JSON.stringify(pathToFileURL(SIMULATOR_LIBRARY).href)};`,
      `const board = new SimulatedBoard({ url: 'mqtt://127.0.0.1:${port}', hardwareId: '${HARDWARE_ID}', token: '${GOOD}', heartbeatMs: 200 });`,
      `board.on('event', (event) => { if (event.kind === 'connected') { console.log('connected'); void board.stop().then(() => console.log('stopped')); } });`,
      `await board.start().catch(() => undefined);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanup.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const timedOut = new Promise<'still running'>((resolve) => setTimeout(resolve, 10_000, 'still running'));
    expect(await Promise.race([exited, timedOut])).toBe(0);
    expect(output).toBe('connected\nstopped\n');
  });

  it('keeps the command line running while the broker is away, and exits 1 with the reason when refused', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const run = (token: string) => {
      const child = spawn(process.execPath, [SIMULATOR_CLI, '--url', `mqtt://127.0.0.1:${port}`, '--id', HARDWARE_ID, '--token', token, '--heartbeat-ms', '500'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      cleanup.push(() => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      return { child, output: () => output, exited };
    };

    const sim = run(GOOD);
    await waitUntil(() => /reconnecting in/.test(sim.output()), 'the command line retrying', 15_000);
    expect(sim.child.exitCode).toBeNull();
    let broker = await startBroker(port);
    await waitUntil(() => /connected to mqtt/.test(sim.output()), 'the command line connected', 15_000);
    await broker.close();
    await waitUntil(() => /the connection was lost; reconnecting in/.test(sim.output()), 'the command line noticed the broker left', 15_000);
    expect(sim.child.exitCode).toBeNull();
    broker = await startBroker(port);
    cleanup.push(() => broker.close());
    await waitUntil(() => (sim.output().match(/connected to mqtt/g) ?? []).length >= 2, 'the command line back', 15_000);
    sim.child.kill('SIGINT');
    expect(await sim.exited).toBe(0);

    // A token may begin with a dash (random text): still read as the token, not as an option.
    const refused = run('-wrong-token');
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/the broker refused the board \(.*Bad username or password.*\): check --id and --token/);
  });
});
