import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BoardPeripheralSchema } from '@plinth/shared';
import { z } from 'zod';
import { SimulatedBoard } from './board.js';

const USAGE = `Usage: plinth-hw-sim --url mqtt://127.0.0.1:1883 --id <hardwareId> --token <token>
       [--peripherals <file.json>] [--fw 46] [--user-fw 1.0] [--heartbeat-ms 16000] [--press-every-ms <ms>]

Behaves as a Plinth hardware board: announces its peripherals, heartbeats, obeys reboot,
identify, get, debug, prop sets and firmware updates, and prints one line per event.`;

/** The options that take a value (`--token <token>`). */
const VALUE_OPTIONS = new Set(['--url', '--id', '--token', '--peripherals', '--fw', '--user-fw', '--heartbeat-ms', '--press-every-ms']);

/**
 * `--token <value>` as `--token=<value>`: a token is random text that may begin with a dash, which
 * the parser would otherwise take for an option ("argument is ambiguous").
 */
export function joinOptionValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (VALUE_OPTIONS.has(arg) && i + 1 < argv.length) {
      joined.push(`${arg}=${argv[i + 1]}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** The command line: parses the options, runs a board until Ctrl-C. Answers the exit code. */
export async function main(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: joinOptionValues(argv),
      options: {
        url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
        id: { type: 'string' },
        token: { type: 'string' },
        peripherals: { type: 'string' },
        fw: { type: 'string', default: '46' },
        'user-fw': { type: 'string', default: '1.0' },
        'heartbeat-ms': { type: 'string', default: '16000' },
        'press-every-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`plinth-hw-sim: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (!values.id || !values.token) {
    process.stderr.write(`plinth-hw-sim: --id and --token are required\n${USAGE}\n`);
    return 2;
  }
  const heartbeatMs = Number(values['heartbeat-ms']);
  const pressEveryMs = values['press-every-ms'] ? Number(values['press-every-ms']) : undefined;
  if (!Number.isFinite(heartbeatMs) || heartbeatMs < 50 || (pressEveryMs !== undefined && !(pressEveryMs >= 50))) {
    process.stderr.write('plinth-hw-sim: --heartbeat-ms and --press-every-ms must be numbers of at least 50\n');
    return 2;
  }
  let peripherals;
  if (values.peripherals) {
    const parsed = z.array(BoardPeripheralSchema).safeParse(JSON.parse(fs.readFileSync(values.peripherals, 'utf8')));
    if (!parsed.success) {
      process.stderr.write(`plinth-hw-sim: ${values.peripherals} is not a list of peripherals: ${parsed.error.message}\n`);
      return 2;
    }
    peripherals = parsed.data;
  }
  const board = new SimulatedBoard({
    url: values.url,
    hardwareId: values.id.toLowerCase(),
    token: values.token,
    peripherals,
    plinthFw: values.fw,
    userFw: values['user-fw'],
    heartbeatMs,
    pressEveryMs,
    log: out,
  });
  // Runs until Ctrl-C, or until the broker refuses the board (a wrong or revoked token): the only
  // failure that retrying cannot mend. An unreachable broker is tried again, with the wait printed.
  let refusal: string | null = null;
  const ended = new Promise<void>((resolve) => {
    board.on('event', (event) => {
      if (event.kind !== 'refused') return;
      refusal = event.reason;
      resolve();
    });
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  board.start().catch(() => undefined);
  await ended;
  await board.stop();
  if (refusal !== null) {
    process.stderr.write(`plinth-hw-sim: the broker refused the board (${refusal}): check --id and --token\n`);
    return 1;
  }
  return 0;
}
