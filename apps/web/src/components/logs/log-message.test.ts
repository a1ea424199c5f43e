import { describe, expect, it } from 'vitest';
import { readMessage, SUMMARY_CHARS } from './log-message';

describe('readMessage', () => {
  it('pretty-prints JSON objects and arrays under a compact summary', () => {
    expect(readMessage(' {"a":1, "b":[true,null]} ')).toEqual({ kind: 'json', summary: '{"a":1,"b":[true,null]}', pretty: '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}' });
    expect(readMessage('[1,2]')).toMatchObject({ kind: 'json', summary: '[1,2]' });
  });

  it('cuts a long summary', () => {
    const long = JSON.stringify({ text: 'x'.repeat(500) });
    const read = readMessage(long);
    expect(read.kind === 'json' && read.summary.length).toBe(SUMMARY_CHARS);
    expect(read.kind === 'json' && read.summary.endsWith('…')).toBe(true);
  });

  it('keeps plain text, bare JSON values and broken JSON as text', () => {
    for (const message of ['hello', '"quoted"', '42', '{not json', '<img src=x onerror=alert(1)>', '']) {
      expect(readMessage(message)).toEqual({ kind: 'text', text: message });
    }
  });
});
