import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger } from './logger.js';

/** A destination that keeps what is written, and says whether it is a terminal. */
function capture(isTTY: boolean) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => text };
}

const BANNER = ['', '  Create the first platform admin with this one-time link:', '', '    http://localhost:3000/setup?token=abc', ''].join('\n');

describe('chooseLogFormat', () => {
  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat({ isTerminal: true })).toBe('pretty');
    expect(chooseLogFormat({ isTerminal: false })).toBe('json');
    expect(chooseLogFormat({ format: 'json', isTerminal: true })).toBe('json');
    expect(chooseLogFormat({ format: 'pretty', isTerminal: false })).toBe('pretty');
  });
});

describe('createLogger', () => {
  it('prints readable lines on a terminal: a multi-line message (the first-start link) as it is, nothing escaped', () => {
    const out = capture(true);
    createLogger({ level: 'info', destination: out.stream }).warn(BANNER);
    const text = stripVTControlCharacters(out.text());
    expect(text).toContain('WARN');
    expect(text).toContain('\n    http://localhost:3000/setup?token=abc\n');
    expect(text).not.toContain('\\n');
    expect(text.trimStart().startsWith('{')).toBe(false);
  });

  it('writes one JSON object a line when the output is not a terminal, or with LOG_FORMAT=json on one', () => {
    for (const [isTTY, format] of [[false, undefined], [true, 'json']] as const) {
      const out = capture(isTTY);
      createLogger({ level: 'info', format, destination: out.stream }).info({ hardwareId: 'b1' }, 'Plinth is ready at http://localhost:3000');
      const entry = JSON.parse(out.text().trim()) as { msg: string; level: number; hardwareId: string };
      expect(entry).toMatchObject({ msg: 'Plinth is ready at http://localhost:3000', level: 30, hardwareId: 'b1' });
    }
  });

  it('honours LOG_LEVEL in either format', () => {
    for (const format of ['pretty', 'json'] as const) {
      const out = capture(false);
      const logger = createLogger({ level: 'warn', format, destination: out.stream });
      logger.info('not shown');
      logger.warn('shown');
      expect(out.text()).toContain('shown');
      expect(out.text()).not.toContain('not shown');
    }
  });
});
