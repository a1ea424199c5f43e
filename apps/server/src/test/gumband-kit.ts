import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { GUMBAND_PORT_OFFSETS } from '../compat/gumband/gumband-ports.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The example exhibit written against `@deeplocal/gumband-node-sdk` (examples/gumband-exhibit). */
export const GUMBAND_EXAMPLE = path.resolve(here, '../../../../examples/gumband-exhibit/exhibit.mjs');
/** Moves the SDK's fixed ports to the test's range (see the file). */
export const GUMBAND_PORT_SHIFT = path.join(here, 'gumband-ports.mjs');

/** One line the example exhibit printed. */
export type GumbandLine = { event: string; payload: any };

/** The example exhibit in its own Node process: its JSON lines, and its other output (the SDK logs to stdout) in `output`. */
export type GumbandProcess = { child: ChildProcess; lines: GumbandLine[]; output: string[]; send: (line: string) => void; stop: () => Promise<void> };

/** Starts the example exhibit (the published SDK, unchanged) against a Plinth in compatibility mode. */
export function startGumbandExhibit(options: { exhibitId: string; token: string; basePort: number; manifest?: string }): GumbandProcess {
  const child = spawn(process.execPath, ['--import', GUMBAND_PORT_SHIFT, GUMBAND_EXAMPLE], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      GB_EXHIBIT_ID: options.exhibitId,
      GB_TOKEN: options.token,
      GB_HOST: '127.0.0.1',
      GB_TEST_BASE_PORT: String(options.basePort),
      ...(options.manifest ? { GB_MANIFEST: options.manifest } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: GumbandLine[] = [];
  const output: string[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as GumbandLine);
    } catch {
      output.push(line);
    }
  });
  readline.createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return {
    child,
    lines,
    output,
    send: (line) => child.stdin!.write(`${line}\n`),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose Gumband ports (base to base + 10) are all free now. */
export async function freeGumbandBasePort(): Promise<number> {
  const offsets = Object.values(GUMBAND_PORT_OFFSETS);
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const free = await Promise.all(offsets.map((offset) => portFree(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free range of Gumband ports');
}
