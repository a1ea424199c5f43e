import type { ChartData } from 'chart.js';

/**
 * Stands in for react-chartjs-2 in jsdom (no canvas): each chart is a canvas element carrying its
 * data as JSON, with the props the real one passes on. Use with
 * `vi.mock('react-chartjs-2', () => import('../../../test/chart-mock'))`.
 */
function FakeChart(kind: string) {
  return function Chart({ data, options: _options, ...canvas }: { data: ChartData; options?: unknown } & Record<string, unknown>) {
    return <canvas role="img" data-kind={kind} data-chart={JSON.stringify(data)} {...canvas} />;
  };
}

export const Line = FakeChart('line');
export const Bar = FakeChart('bar');

/** The data a fake chart was given. */
export function chartData(canvas: HTMLElement): { labels: string[]; datasets: { label: string; data: number[] }[] } {
  return JSON.parse(canvas.getAttribute('data-chart') ?? '{}');
}
