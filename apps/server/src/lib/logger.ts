import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/**
 * LOG_FORMAT when set; else readable lines on a terminal and JSON when stdout is a pipe or a
 * file (a log collector, systemd, a container runtime).
 */
export function chooseLogFormat(options: { format?: LogFormat; isTerminal: boolean }): LogFormat {
  return options.format ?? (options.isTerminal ? 'pretty' : 'json');
}

export type LoggerOptions = {
  level: string;
  format?: LogFormat;
  /** Where lines go; stdout by default (whose being a terminal decides the format when none is set). */
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
};

/**
 * The server's logger (pino). Pretty lines are formatted in the process (synchronously, no worker
 * thread): a message that spans lines (the first-start link) prints as it is, with nothing
 * escaped, so a terminal shows the link whole and a newcomer can click it.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const format = chooseLogFormat({ format: options.format, isTerminal: Boolean(destination.isTTY) });
  if (format === 'json') {
    return options.destination ? pino({ level: options.level }, options.destination as DestinationStream) : pino({ level: options.level });
  }
  const prettify = prettyFactory({ colorize: Boolean(destination.isTTY), translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
  // Formatted and written at once: a line logged right before process.exit is not lost.
  const pretty = { write: (line: string) => destination.write(prettify(line)) };
  return pino({ level: options.level }, pretty);
}
