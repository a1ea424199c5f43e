// Command-line and environment options shared by the benchmarks: every number can come from a
// flag (`--exhibits 100`) or an environment variable (`BENCH_EXHIBITS=100`), the flag winning.
import { parseArgs } from 'node:util';
import type { BenchDatabase } from './plinth-server.js';

/** A flag's value as the lenient parser gives it. */
export type FlagValue = string | boolean | undefined;

/** The flags a benchmark names, each a string or a boolean switch. */
export type FlagSpec = Record<string, { type: 'string' | 'boolean' }>;

/**
 * The benchmark's flags, parsed leniently (unknown flags and the benchmark's name as a
 * positional are let through, as `npm run bench -- <name> …` passes them), plus `--from-source`
 * that every benchmark takes.
 */
export function readFlags(options: FlagSpec): Record<string, FlagValue> {
  const { values } = parseArgs({
    strict: false,
    allowPositionals: true,
    options: { ...options, 'from-source': { type: 'boolean' } },
  });
  return values;
}

/** A positive number from the flag, else the environment variable, else `fallback`; throws naming `--name`. */
export function positiveNumber(flag: FlagValue, env: string | undefined, fallback: number, name: string): number {
  const raw = typeof flag === 'string' ? flag : env;
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number (got ${raw})`);
  return value;
}

/** positiveNumber rounded to a whole number (counts, sizes). */
export function wholeNumber(flag: FlagValue, env: string | undefined, fallback: number, name: string): number {
  return Math.round(positiveNumber(flag, env, fallback, name));
}

/** wholeNumber, or 0 when the flag (else the environment variable) says 0: a part of the benchmark turned off. */
export function wholeNumberOrZero(flag: FlagValue, env: string | undefined, fallback: number, name: string): number {
  const raw = typeof flag === 'string' ? flag : env;
  return raw !== undefined && raw !== '' && Number(raw) === 0 ? 0 : wholeNumber(flag, env, fallback, name);
}

/** Whether to run the server from its TypeScript sources (`--from-source` or BENCH_FROM_SOURCE=1) rather than its build. */
export function isFromSource(values: Record<string, FlagValue>): boolean {
  return values['from-source'] === true || process.env.BENCH_FROM_SOURCE === '1';
}

/**
 * The databases to run on: `--database pglite|postgres|both` (or BENCH_DATABASE), `fallback` when
 * neither is given; both means the embedded default first, then PostgreSQL.
 */
export function readDatabases(flag: FlagValue, fallback: BenchDatabase | 'both' = 'both'): BenchDatabase[] {
  const raw = typeof flag === 'string' ? flag : (process.env.BENCH_DATABASE ?? fallback);
  if (raw === 'both') return ['pglite', 'postgres'];
  if (raw === 'pglite' || raw === 'postgres') return [raw];
  throw new Error(`--database must be postgres, pglite or both (got ${raw})`);
}

/** One benchmark's figures on one database: what was measured, its value, and its target if it has one. */
type DatabaseFigures = { database: BenchDatabase; figures: { label: string; value: string; target?: string; ok?: boolean }[] };

/**
 * Prints a benchmark's figures of each database side by side, as a markdown table: a row per
 * figure, a column per database (the value, then `met` or `MISSED` where the figure has a target),
 * the target last. A figure one database lacks reads `–`.
 */
export function printByDatabase(title: string, runs: DatabaseFigures[]): void {
  const labels = [...new Set(runs.flatMap((run) => run.figures.map((f) => f.label)))];
  const cell = (run: DatabaseFigures, label: string) => {
    const figure = run.figures.find((f) => f.label === label);
    if (!figure) return '–';
    return figure.ok === undefined ? figure.value : `${figure.value}: ${figure.ok ? 'met' : 'MISSED'}`;
  };
  const targetOf = (label: string) => runs.flatMap((run) => run.figures).find((f) => f.label === label && f.target)?.target ?? '';
  const rows = [['figure', ...runs.map((run) => run.database), 'target'], ...labels.map((label) => [label, ...runs.map((run) => cell(run, label)), targetOf(label)])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(rows[0]!));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** The figures of every database in one list, each label led by its database (`pglite: latency p99`), for BENCH_RESULTS_FILE. */
export function figuresByDatabase(runs: DatabaseFigures[]): DatabaseFigures['figures'] {
  return runs.flatMap((run) => run.figures.map((figure) => ({ ...figure, label: `${run.database}: ${figure.label}` })));
}

/** A database's CPU over a window, as a figure: PostgreSQL's backends serving the server; PGlite's is counted in the server's own. */
export function databaseCpu(database: BenchDatabase, percentOfOneCore: number): string {
  return database === 'postgres' ? `${percentOfOneCore.toFixed(1)}% of one core (PostgreSQL backends)` : 'in the server CPU (PGlite runs in its process)';
}
