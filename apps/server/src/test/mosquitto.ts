import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/** Where Debian puts Mosquitto's dynamic-security plugin. */
export const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

/** Messages Mosquitto may queue for one client (the Plinth server): about a minute of 10,000 boards heartbeating with 1,000 prop changes a second. */
export const MAX_QUEUED_MESSAGES = 100_000;

/**
 * The Mosquitto configuration Plinth expects of an external broker: no anonymous clients, the
 * dynamic-security plugin (Plinth provisions board credentials into it), no persistence needed.
 * docs/protocols/hardware-mqtt.md shows the same file for a deployment.
 */
export function mosquittoConfig(options: { port: number; host: string; dynsecFile: string; pluginPath?: string }): string {
  return [
    `listener ${options.port} ${options.host}`,
    'allow_anonymous false',
    'persistence false',
    // The Plinth server is one client receiving every board's messages: Mosquitto's default queue of
    // 1,000 QoS 1 messages per client overflows in a second's pause of a busy server, and Mosquitto then
    // drops board messages it has already acknowledged to the board.
    `max_queued_messages ${MAX_QUEUED_MESSAGES}`,
    `plugin ${options.pluginPath ?? DYNSEC_PLUGIN}`,
    `plugin_opt_config_file ${options.dynsecFile}`,
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    '',
  ].join('\n');
}

/**
 * Gives the Plinth server's MQTT user the plinth-server role (publish commands to boards, read
 * and subscribe to everything under plinth/hw). Written into the file before Mosquitto starts:
 * changing a connected client's roles makes Mosquitto drop it.
 */
export function grantServerRole(dynsecFile: string, username: string): void {
  type Dynsec = { clients: { username: string; roles: { rolename: string }[] }[]; roles: { rolename: string; acls: unknown[] }[] };
  const data = JSON.parse(fs.readFileSync(dynsecFile, 'utf8')) as Dynsec;
  const acl = (acltype: string, topic: string) => ({ acltype, topic, allow: true });
  data.roles.push({
    rolename: 'plinth-server',
    acls: [acl('publishClientSend', 'plinth/hw/#'), acl('publishClientReceive', 'plinth/hw/#'), acl('subscribePattern', 'plinth/hw/#')],
  });
  data.clients.find((c) => c.username === username)!.roles.push({ rolename: 'plinth-server' });
  fs.writeFileSync(dynsecFile, JSON.stringify(data, null, 2));
}

export type RunningMosquitto = {
  /** Address for boards (no credentials). */
  url: string;
  /** Address for the Plinth server, with the dynamic-security admin's credentials (MQTT_URL). */
  serverUrl: string;
  /** Stops the broker and starts it again on the same port with the same data (a broker restart). */
  restart: (downMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`mosquitto did not open port ${port}: ${log()}`);
}

/** Starts a private Mosquitto 2 on an ephemeral port with its own dynamic-security file. */
export async function startMosquitto(): Promise<RunningMosquitto> {
  if (!fs.existsSync(DYNSEC_PLUGIN)) throw new Error(`Mosquitto's dynamic-security plugin is missing (${DYNSEC_PLUGIN})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-mosquitto-'));
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const adminPassword = `admin-${Math.random().toString(36).slice(2)}`;
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsecFile, 'plinth-admin', adminPassword], { stdio: 'ignore' });
  grantServerRole(dynsecFile, 'plinth-admin');
  const port = await freePort();
  const configFile = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(configFile, mosquittoConfig({ port, host: '127.0.0.1', dynsecFile }));
  // Started as root, Mosquitto drops to the mosquitto user, which must own its files.
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'mosquitto']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'mosquitto']).toString().trim());
    for (const file of [dir, dynsecFile, configFile]) fs.chownSync(file, uid, gid);
  }
  let output = '';
  const launch = async () => {
    const started = spawn('mosquitto', ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr.on('data', (d: Buffer) => (output += d.toString()));
    await waitForPort(port, started, () => output);
    return started;
  };
  const halt = async (running: ChildProcess) => {
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  let child = await launch();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    serverUrl: `mqtt://plinth-admin:${adminPassword}@127.0.0.1:${port}`,
    restart: async (downMs = 0) => {
      await halt(child);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await launch();
    },
    stop: async () => {
      await halt(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
