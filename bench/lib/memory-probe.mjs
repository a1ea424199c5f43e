// Preloaded into the benchmarked server (node --expose-gc --import ./bench/lib/memory-probe.mjs):
// on SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() as JSON to
// BENCH_MEMORY_FILE, so memory is compared without the garbage a collection would free.
// It changes nothing else in the server.
import fs from 'node:fs';

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    fs.renameSync(`${file}.tmp`, file);
  });
}
