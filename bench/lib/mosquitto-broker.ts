// A private Mosquitto 2 for the benchmarks, on an ephemeral port of 127.0.0.1, with its pid (its
// CPU is part of the figures). `dynsec` is the broker Plinth expects behind MQTT_URL: the
// configuration of apps/server/src/test/mosquitto.ts (no anonymous clients, the dynamic-security
// plugin, Plinth's admin given the plinth-server role); Plinth provisions the boards' credentials
// into it. `bare` is the same broker without authentication: anonymous clients, no plugin, the
// same queue limit.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DYNSEC_PLUGIN, grantServerRole, MAX_QUEUED_MESSAGES, mosquittoConfig } from '../../apps/server/src/test/mosquitto.js';
import { freePort } from './plinth-server.js';

export type MosquittoKind = 'bare' | 'dynsec';

export type BenchMosquitto = {
  pid: number;
  /** Address for boards and the bare broker's subscriber (no credentials). */
  url: string;
  /** Address for a Plinth server (MQTT_URL): with the dynamic-security admin's credentials; `url` on a bare broker. */
  serverUrl: string;
  /** Stops the broker and removes its files; answers how it ended. */
  stop: () => Promise<string>;
};

/** The bare broker's configuration: Plinth's without the plugin, open to anyone. */
function bareConfig(port: number): string {
  return [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', `max_queued_messages ${MAX_QUEUED_MESSAGES}`, 'log_dest stderr', 'log_type error', 'log_type warning', ''].join('\n');
}

/** Whether something accepts connections on the port now. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts Mosquitto (`/usr/sbin/mosquitto`, on PATH) of the kind asked, in a new directory of its
 * own; `extra` lines are added to its configuration (e.g. `max_inflight_messages 1000`, to see
 * what a setting changes).
 */
export async function startBenchMosquitto(kind: MosquittoKind, extra: string[] = []): Promise<BenchMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plinth-bench-mosquitto-${kind}-`));
  const port = await freePort();
  const configFile = path.join(dir, 'mosquitto.conf');
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  let serverUrl = `mqtt://127.0.0.1:${port}`;
  let config = bareConfig(port);
  if (kind === 'dynsec') {
    if (!fs.existsSync(DYNSEC_PLUGIN)) throw new Error(`Mosquitto's dynamic-security plugin is missing (${DYNSEC_PLUGIN})`);
    const password = `admin-${Math.random().toString(36).slice(2)}`;
    execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsecFile, 'plinth-admin', password], { stdio: 'ignore' });
    grantServerRole(dynsecFile, 'plinth-admin');
    config = mosquittoConfig({ port, host: '127.0.0.1', dynsecFile });
    serverUrl = `mqtt://plinth-admin:${password}@127.0.0.1:${port}`;
  }
  fs.writeFileSync(configFile, config + extra.map((line) => `${line}\n`).join(''));
  // Started as root, Mosquitto runs as the mosquitto user, which must own its files (it rewrites the dynsec file).
  if (process.getuid?.() === 0) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'mosquitto'], { encoding: 'utf8' }).trim()));
    for (const file of fs.readdirSync(dir)) fs.chownSync(path.join(dir, file), uid!, gid!);
    fs.chownSync(dir, uid!, gid!);
  }
  const child = spawn('mosquitto', ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const how = await exited;
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
    return how;
  };
  for (let i = 0; !(await isListening(port)); i++) {
    if (child.exitCode !== null || i === 200) {
      await stop();
      throw new Error(`mosquitto (${kind}) did not open port ${port}: ${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { pid: child.pid!, url: `mqtt://127.0.0.1:${port}`, serverUrl, stop };
}
