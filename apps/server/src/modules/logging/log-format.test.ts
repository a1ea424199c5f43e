import { describe, expect, it } from 'vitest';
import { storableText } from '@plinth/shared';
import { reportValue } from './log-recorder.js';
import { lineTime } from './log-time.js';
import { csvCell, csvFileName, csvLine } from './logging.presenter.js';
import { buildReport } from './reporting.service.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('the time a line is stored at', () => {
  it('is the device’s own time when plausible, else the arrival', () => {
    const minutesAgo = new Date(NOW.getTime() - 10 * 60_000);
    expect(lineTime(minutesAgo, NOW, 90)).toBe(minutesAgo);
    expect(lineTime(undefined, NOW, 90)).toBe(NOW);
    expect(lineTime(new Date('not a time'), NOW, 90)).toBe(NOW);
    // A little ahead (clocks drift) is believed; more than five minutes is not.
    const aheadA = new Date(NOW.getTime() + 4 * 60_000);
    expect(lineTime(aheadA, NOW, 90)).toBe(aheadA);
    expect(lineTime(new Date(NOW.getTime() + 6 * 60_000), NOW, 90)).toBe(NOW);
    // Older than the retention: a clock that says 1970, not a line to drop.
    expect(lineTime(new Date(0), NOW, 90)).toBe(NOW);
    const old = new Date(NOW.getTime() - 89 * 86_400_000);
    expect(lineTime(old, NOW, 90)).toBe(old);
    expect(lineTime(old, NOW, 30)).toBe(NOW);
  });
});

describe('CSV cells', () => {
  it('are quoted by RFC 4180 and never start a formula', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('')).toBe('');
    expect(csvLine(['a', 'b,c', '-d'])).toBe(`a,"b,c",'-d\r\n`);
  });

  it('go in a file named after the device and the time', () => {
    expect(csvFileName('exhibit', 'abc', new Date('2026-11-23T09:05:07.123Z'))).toBe('exhibit-logs-abc-20261123-090507.csv');
  });
});

describe('report values and storable text', () => {
  it('takes the data itself, else its value field, else none', () => {
    expect(reportValue('kids')).toBe('kids');
    expect(reportValue(3)).toBe('3');
    expect(reportValue(false)).toBe('false');
    expect(reportValue(null)).toBeNull();
    expect(reportValue({ value: 'a' })).toBe('a');
    expect(reportValue({ value: 7 })).toBe('7');
    expect(reportValue({ value: { x: 1 } })).toBe('{"x":1}');
    expect(reportValue({ other: 1 })).toBeNull();
    expect(reportValue([1, 2])).toBeNull();
  });

  it('replaces what PostgreSQL cannot store, keeping real surrogate pairs', () => {
    expect(storableText('a\u0000b')).toBe('a\ufffdb');
    expect(storableText('x\ud800y')).toBe('x\ufffdy');
    expect(storableText('x\udc00')).toBe('x\ufffd');
    expect(storableText('ok 😀')).toBe('ok 😀');
  });
});

describe('a report built from buckets and counts', () => {
  it('has one label per distinct instant, zeros where nothing happened, datasets in the order given', () => {
    const at = (iso: string) => new Date(iso);
    const buckets = [
      { wall: '2026-03-29 01:00:00', at: at('2026-03-29T00:00:00Z') },
      // A skipped wall time reads as the next instant: it shares that label.
      { wall: '2026-03-29 02:00:00', at: at('2026-03-29T01:00:00Z') },
      { wall: '2026-03-29 03:00:00', at: at('2026-03-29T01:00:00Z') },
    ];
    const report = buildReport(
      buckets,
      [
        { wall: '2026-03-29 03:00:00', label: 'button', n: 2 },
        { wall: '2026-03-29 01:00:00', label: 'online', n: 1 },
        { wall: '2026-03-29 01:00:00', label: null, n: 4 },
      ],
      ['online', 'button'],
    );
    expect(report.labels).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z']);
    expect(report.datasets).toEqual([
      { label: '(none)', data: [4, 0] },
      { label: 'online', data: [1, 0] },
      { label: 'button', data: [0, 2] },
    ]);
  });
});
