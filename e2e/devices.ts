import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createOrganization, createSite, test as base, uniqueName, type Api } from './fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SDK_SCRIPT = path.join(ROOT, 'e2e/sdk-exhibit.mjs');
const SIMULATOR_CLI = path.join(ROOT, 'packages/hardware-sim/bin/plinth-hw-sim.js');
/** Debian's Python, which has the Python SDK's dependency (scripts/test.mjs installs it). */
const PYTHON = '/usr/bin/python3';
const PYTHON_SDK = path.join(ROOT, 'packages/sdk-python');
const GUMBAND_EXAMPLE = path.join(ROOT, 'examples/gumband-exhibit/exhibit.mjs');
/** Moves the Gumband SDK's fixed ports (3000, 3002, ...) to this Plinth's free range. */
const GUMBAND_PORT_SHIFT = path.join(ROOT, 'apps/server/src/test/gumband-ports.mjs');

type Named = { id: string; name: string };
type Place = { organization: Named; site: Named };

/** An organization with one site, arranged through the API as the platform admin. */
export async function createPlace(api: Api, prefix = 'Gallery'): Promise<Place> {
  const organization = await createOrganization(api, uniqueName(`${prefix} Org`));
  const site = await createSite(api, organization.id, uniqueName(`${prefix} Site`));
  return { organization, site };
}

/** An exhibit on a site with one token (the value is only in this answer, as on the auth tab). */
export async function createExhibitWithToken(api: Api, siteId: string, name = uniqueName('Exhibit')): Promise<Named & { token: string }> {
  const exhibit = await api.post<Named>('/exhibit-management/exhibit', {
    name,
    siteId,
  });
  const { token } = await api.post<{ token: string }>('/auth/exhibit', {
    name: 'e2e',
    exhibitId: exhibit.id,
  });
  return { id: exhibit.id, name: exhibit.name, token };
}

/** A hardware record on a site with one token, the board's MQTT password. */
export async function createHardwareWithToken(api: Api, siteId: string, name = uniqueName('Board')): Promise<Named & { token: string }> {
  const hardware = await api.post<Named>('/hardware-mgmt/hardware', {
    name,
    siteId,
  });
  const { token } = await api.post<{ token: string }>('/auth/hardware', {
    name: 'e2e',
    hardwareId: hardware.id,
  });
  return { id: hardware.id, name: hardware.name, token };
}

/** The port of the server's MQTT broker, as the public configuration tells boards and the help pages. */
export async function mqttPort(api: Api): Promise<number> {
  const { mqttPort: port } = await api.get<{ mqttPort: number }>('/config');
  if (!port) throw new Error('GET /config answered no MQTT port: is the embedded broker running?');
  return port;
}

/**
 * A device program running as its own Node process. Its stdout is kept line by line so a test can
 * wait for what the device reports; stdin takes commands where the program reads them.
 */
export class DeviceProcess {
  readonly lines: string[] = [];
  private readonly waiters = new Set<() => void>();
  private stderr = '';

  constructor(
    readonly label: string,
    readonly child: ChildProcess,
  ) {
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.lines.push(line);
      this.notify();
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    child.on('exit', () => this.notify());
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Waits for a line of output matching `pattern`, written after the first `from` lines (0 by
   * default: any line so far counts). Fails with everything the process printed.
   */
  async waitForLine(pattern: RegExp, { from = 0, timeoutMs = 15_000 }: { from?: number; timeoutMs?: number } = {}): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = this.lines.slice(from).find((line) => pattern.test(line));
        if (found !== undefined) return done(() => resolve(found));
        if (this.hasExited) return done(() => reject(this.failure(`exited before printing ${pattern}`)));
      };
      const timer = setTimeout(() => done(() => reject(this.failure(`printed no line matching ${pattern} within ${timeoutMs} ms`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  private failure(what: string): Error {
    return new Error(`${this.label} ${what}.\nstdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`);
  }

  /** Writes one command line to the program's stdin. */
  send(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  /** Stops the process (SIGTERM, SIGKILL after 5 s) and waits until it has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.hasExited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Manifest fields of the SDK (see packages/sdk/README.md). */
export type ExhibitManifest = Record<string, unknown>;

/** Launchers of device processes, given to a test as `devices`. */
export type Devices = {
  /** Starts e2e/sdk-exhibit.mjs: an exhibit program embedding @plinth/sdk, connected to this Plinth. */
  exhibit: (exhibit: { id: string; token: string }, manifest: ExhibitManifest, options?: { contentDir?: string }) => DeviceProcess;
  /**
   * Starts the Python SDK's example exhibit (packages/sdk-python/examples/controls_and_settings.py,
   * with that folder's manifest.json) as its own Python process, connected to this Plinth.
   */
  pythonExample: (exhibit: { id: string; token: string }) => DeviceProcess;
  /**
   * Starts the Gumband example exhibit (examples/gumband-exhibit: the published
   * @deeplocal/gumband-node-sdk) as its own Node process, against this Plinth's compatibility ports.
   */
  gumbandExample: (exhibit: { id: string; token: string }) => DeviceProcess;
  /** Starts the board simulator's command line against the server's MQTT broker. */
  board: (
    hardware: { id: string; token: string },
    options?: {
      pressEveryMs?: number;
      heartbeatMs?: number;
      plinthFw?: string;
    },
  ) => Promise<DeviceProcess>;
};

/**
 * The Plinth test with `devices`: launches exhibit and board processes and stops every one of
 * them when the test ends, whatever its outcome.
 */
export const test = base.extend<{ devices: Devices }>({
  devices: async ({ plinth, apiAs }, use) => {
    const started: DeviceProcess[] = [];
    let port: number | null = null;
    const launch = (label: string, args: string[], env: NodeJS.ProcessEnv = {}, command = process.execPath) => {
      const child = spawn(command, args, {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const device = new DeviceProcess(label, child);
      started.push(device);
      return device;
    };
    await use({
      exhibit: (exhibit, manifest, options = {}) =>
        launch(`The exhibit ${exhibit.id}`, [SDK_SCRIPT], {
          PLINTH_URL: plinth.baseURL,
          EXHIBIT_ID: exhibit.id,
          EXHIBIT_TOKEN: exhibit.token,
          EXHIBIT_MANIFEST: JSON.stringify(manifest),
          CONTENT_DIR: options.contentDir ?? '',
        }),
      pythonExample: (exhibit) =>
        launch(
          `The Python example exhibit ${exhibit.id}`,
          ['-u', path.join(PYTHON_SDK, 'examples/controls_and_settings.py')],
          { PYTHONPATH: path.join(PYTHON_SDK, 'src'), PLINTH_URL: plinth.baseURL, EXHIBIT_ID: exhibit.id, EXHIBIT_TOKEN: exhibit.token },
          PYTHON,
        ),
      gumbandExample: (exhibit) =>
        launch(`The Gumband example exhibit ${exhibit.id}`, ['--import', GUMBAND_PORT_SHIFT, GUMBAND_EXAMPLE], {
          NODE_ENV: 'production',
          GB_EXHIBIT_ID: exhibit.id,
          GB_TOKEN: exhibit.token,
          GB_HOST: '127.0.0.1',
          GB_TEST_BASE_PORT: String(plinth.gumbandBasePort),
        }),
      board: async (hardware, options = {}) => {
        port ??= await mqttPort(await apiAs());
        const args = [SIMULATOR_CLI, '--url', `mqtt://127.0.0.1:${port}`, '--id', hardware.id, '--token', hardware.token];
        args.push('--heartbeat-ms', String(options.heartbeatMs ?? 2000));
        if (options.pressEveryMs) args.push('--press-every-ms', String(options.pressEveryMs));
        if (options.plinthFw) args.push('--fw', options.plinthFw);
        return launch(`The board simulator ${hardware.id}`, args);
      },
    });
    await Promise.all(started.map((device) => device.stop()));
  },
});
