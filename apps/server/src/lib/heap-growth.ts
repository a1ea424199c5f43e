import v8 from 'node:v8';

/**
 * How far V8 lets the JavaScript heap grow past what the last full collection kept, in per cent.
 * Left to itself V8 picks 10–300 % from how fast its collections run, and on a busy server it
 * picks high: with 3,000 boards the heap sat at 171 MiB with 71 MiB alive, all of it resident
 * memory an operator pays for. At 30 % the same server held 105 MiB, and at 10,000 boards the
 * server grew by 23.0 KB a board instead of 34.3 KB (docs/performance.md, "V8's heap
 * growth"); the price is more frequent full collections, most of their marking done beside the
 * event loop.
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Sets the heap's growth (`HEAP_GROWING_PERCENT`) for this process, the embedded database's thread
 * included, unless the operator chose one on node's command line (`--heap-growing-percent=N`). V8
 * reads the setting each time a full collection sets the next limit, so it applies from then on.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
