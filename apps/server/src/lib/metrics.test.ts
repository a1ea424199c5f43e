import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyHistogram } from './metrics.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Both histograms fed the same values, each in a registry of its own, rendered as Prometheus scrapes them. */
async function renderBoth(values: number[]) {
  const fast = new Registry();
  const reference = new Registry();
  const tally = new TallyHistogram(fast, { name: 'h_seconds', help: 'A histogram.', buckets: BUCKETS });
  const histogram = new Histogram({ name: 'h_seconds', help: 'A histogram.', buckets: BUCKETS, registers: [reference] });
  for (const value of values) {
    tally.observe(value);
    histogram.observe(value);
  }
  return { fast: await fast.metrics(), reference: await reference.metrics(), fastRegistry: fast, referenceRegistry: reference, tally, histogram };
}

describe('TallyHistogram', () => {
  it("renders exactly as prom-client's Histogram for the same values: on each bound, between, zero, past the last", async () => {
    const values = [0, ...BUCKETS, ...BUCKETS.map((b) => b * 0.999), ...BUCKETS.map((b) => b * 1.001), 31, 1e6, 0.0003, 0.042, 0.042, 7];
    const { fast, reference } = await renderBoth(values);
    expect(fast).toBe(reference);
    expect(fast).toContain(`h_seconds_count ${values.length}`);
    expect(fast).toContain('h_seconds_bucket{le="0.001"} 4'); // 0, 0.0003, 0.000999 and the bound itself
    expect(fast).toContain(`h_seconds_bucket{le="+Inf"} ${values.length}`);
  });

  it('renders zeros before the first value; after a reset, nothing until the next value, which counts from zero', async () => {
    const empty = await renderBoth([]);
    expect(empty.fast).toBe(empty.reference);
    expect(empty.fast).toContain('h_seconds_count 0');
    const both = await renderBoth([0.2, 3]);
    both.fastRegistry.resetMetrics();
    both.referenceRegistry.resetMetrics();
    expect(await both.fastRegistry.metrics()).not.toContain('h_seconds_count');
    expect(await both.fastRegistry.metrics()).toBe(await both.referenceRegistry.metrics());
    both.tally.observe(0.2);
    both.histogram.observe(0.2);
    expect(await both.fastRegistry.metrics()).toContain('h_seconds_count 1');
    expect(await both.fastRegistry.metrics()).toBe(await both.referenceRegistry.metrics());
  });
});
