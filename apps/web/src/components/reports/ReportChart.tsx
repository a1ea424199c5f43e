import { Alert, Box, Button, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId, useState } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import type { Report } from '@plinth/shared';
import { errorText } from '../../lib/mutation-state';
import './chart-setup';

export type ReportChartProps = {
  title: string;
  /** What the chart draws; undefined while it loads. */
  report: Report | undefined;
  isLoading: boolean;
  error: Error | null;
  /** How a label (a bucket start, an ISO date-time) is written. */
  formatLabel: (label: string) => string;
  /** The first column of the table: what a dataset is ('Event Name'). */
  seriesHeader: string;
  /** `line` for buckets over time, `bar` for daily counts. */
  kind: 'line' | 'bar';
  /** Shown instead of an empty canvas. */
  emptyText: string;
  /** Names the chart's test ids: `<testId>-chart` (the canvas) and `<testId>-table`. */
  testId: string;
};

/** True when the report has nothing to draw: no label, no dataset, or only zeros. */
export function isEmptyReport(report: Report): boolean {
  return report.labels.length === 0 || !report.datasets.some((dataset) => dataset.data.some((value) => value !== 0));
}

/** The report as a table: one row per dataset, one column per label (the chart's accessible fallback). */
function ReportTable({ title, report, labels, seriesHeader, testId }: { title: string; report: Report; labels: string[]; seriesHeader: string; testId: string }) {
  return (
    <Table.ScrollContainer minWidth={400}>
      <Table data-testid={`${testId}-table`} withTableBorder withColumnBorders striped>
        <Table.Caption>{title}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{seriesHeader}</Table.Th>
            {labels.map((label, i) => (
              <Table.Th scope="col" key={`${i}-${label}`}>
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.datasets.map((dataset) => (
            <Table.Tr key={dataset.label}>
              <Table.Th scope="row">{dataset.label}</Table.Th>
              {report.labels.map((_, i) => (
                <Table.Td key={i}>{dataset.data[i] ?? 0}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One report chart (chart.js through react-chartjs-2) under its title, with its loading, error and
 * empty states (an empty report shows `emptyText`, never an empty canvas). The same numbers are in
 * a table that assistive technology always reads and anyone can show.
 */
export function ReportChart(props: ReportChartProps) {
  const { title, report, isLoading, error, formatLabel, seriesHeader, kind, emptyText, testId } = props;
  const [showTable, setShowTable] = useState(false);
  const titleId = useId();

  let body;
  if (error) {
    body = (
      <Alert color="red" role="alert" title={`${title} could not be loaded`}>
        {errorText(error, 'Please try again.')}
      </Alert>
    );
  } else if (isLoading || !report) {
    body = <Loader aria-label={`Loading ${title}`} />;
  } else if (isEmptyReport(report)) {
    body = (
      <Text c="dimmed" data-testid={`${testId}-empty`}>
        {emptyText}
      </Text>
    );
  } else {
    const labels = report.labels.map(formatLabel);
    const data = { labels, datasets: report.datasets.map((dataset) => ({ label: dataset.label, data: dataset.data })) };
    const table = <ReportTable title={title} report={report} labels={labels} seriesHeader={seriesHeader} testId={testId} />;
    const canvasProps = { 'aria-label': `${title} chart`, 'data-testid': `${testId}-chart` };
    body = (
      <Stack gap="xs">
        <Box h={320} pos="relative">
          {kind === 'bar' ? (
            <Bar data={data} options={barOptions} {...canvasProps} />
          ) : (
            <Line data={data} options={lineOptions} {...canvasProps} />
          )}
        </Box>
        <Group justify="flex-end">
          <Button variant="subtle" size="xs" aria-pressed={showTable} onClick={() => setShowTable((value) => !value)}>
            {showTable ? 'Hide table' : 'Show table'}
          </Button>
        </Group>
        {showTable ? table : <VisuallyHidden>{table}</VisuallyHidden>}
      </Stack>
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Title order={4} id={titleId}>
        {title}
      </Title>
      {body}
    </Stack>
  );
}

const scales = { y: { beginAtZero: true, ticks: { precision: 0 } } };
const lineOptions = { responsive: true, maintainAspectRatio: false, scales, plugins: { legend: { position: 'bottom' as const } } };
const barOptions = { responsive: true, maintainAspectRatio: false, scales, plugins: { legend: { position: 'bottom' as const } } };
