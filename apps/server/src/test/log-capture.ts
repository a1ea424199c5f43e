import { pino, type LevelWithSilent, type Logger } from 'pino';

export type LogCapture = {
  logger: Logger;
  /** Every line logged so far, parsed. */
  lines: Record<string, unknown>[];
  /** Every line logged so far, as written (JSON text, one per line). */
  text: () => string;
};

/** A real pino logger whose lines are kept in memory, for tests that read what was logged. */
export function captureLogs(level: LevelWithSilent = 'debug'): LogCapture {
  const raw: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void raw.push(line) });
  return {
    logger,
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    text: () => raw.join(''),
  };
}
