/** The value at quantile q (0..1) of numbers sorted ascending (nearest rank); NaN when empty. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Runs `task` over `items` with at most `limit` running at once; answers results in order. */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A latency histogram as sent between processes: its non-empty buckets as index, count pairs. */
export type SparseHistogram = { bucketMs: number; pairs: number[]; count: number; maxMs: number };

/**
 * Latencies counted in buckets of `bucketMs` (0.1 ms by default) up to `limitMs`, a longer one in
 * the last bucket (the exact maximum is kept): fixed memory however many are recorded, and
 * quantiles to within a bucket.
 */
export class LatencyHistogram {
  private counts: Uint32Array;
  count = 0;
  maxMs = 0;

  constructor(
    readonly bucketMs = 0.1,
    limitMs = 60_000,
  ) {
    this.counts = new Uint32Array(Math.ceil(limitMs / bucketMs) + 1);
  }

  record(ms: number): void {
    const bucket = Math.min(this.counts.length - 1, Math.max(0, Math.floor(ms / this.bucketMs)));
    this.counts[bucket]! += 1;
    this.count += 1;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.maxMs = 0;
  }

  toSparse(): SparseHistogram {
    const pairs: number[] = [];
    this.counts.forEach((n, bucket) => {
      if (n) pairs.push(bucket, n);
    });
    return { bucketMs: this.bucketMs, pairs, count: this.count, maxMs: this.maxMs };
  }

  /** Adds another histogram's counts (same bucket width). */
  merge(other: SparseHistogram): void {
    if (other.bucketMs !== this.bucketMs) throw new Error(`cannot merge ${other.bucketMs} ms buckets into ${this.bucketMs} ms ones`);
    for (let i = 0; i < other.pairs.length; i += 2) this.counts[other.pairs[i]!]! += other.pairs[i + 1]!;
    this.count += other.count;
    this.maxMs = Math.max(this.maxMs, other.maxMs);
  }

  /** The upper edge of the bucket holding quantile q (nearest rank), at most the maximum; NaN when empty. */
  quantile(q: number): number {
    if (!this.count) return Number.NaN;
    const rank = Math.min(this.count, Math.max(1, Math.ceil(q * this.count)));
    let seen = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      seen += this.counts[bucket]!;
      if (seen >= rank) return Math.min(this.maxMs, (bucket + 1) * this.bucketMs);
    }
    return this.maxMs;
  }
}
