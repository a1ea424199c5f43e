import { Button, Group, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { HARDWARE_REPORT_DAYS } from '@plinth/shared';
import { ReportChart } from '../../../components/reports/ReportChart';
import { rangeBefore, viewerTimeZone } from '../../../lib/date-range';
import { formatDate } from '../../../lib/format-date';
import { useHardwareReport, type HardwareReportParams } from '../api/get-hardware-report';

export const NO_HARDWARE_EVENTS_TEXT = `No events in the last ${HARDWARE_REPORT_DAYS} days.`;

/** A day's label on the chart and in the table: 03-14. */
export const reportDayLabel = (iso: string) => formatDate(iso, 'reportDay', iso);

function lastDays(): HardwareReportParams {
  const { start, end } = rangeBefore(HARDWARE_REPORT_DAYS * 24 * 60 * 60 * 1000);
  return { start: start.getTime(), end: end.getTime(), timeZone: viewerTimeZone() };
}

/**
 * The hardware Reports tab (spec 2.13): the board's event counts per day over the last 14 days
 * (ending now), one bar per event type, with the table fallback (Event Name plus one column per
 * day). Refresh reads the 14 days up to now again.
 */
export function HardwareReportsTab({ hardwareId }: { hardwareId: string }) {
  const [params, setParams] = useState(lastDays);
  const report = useHardwareReport(hardwareId, params);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm">
          Events from {formatDate(params.start, 'log')} to {formatDate(params.end, 'log')}
        </Text>
        <Button variant="default" size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => setParams(lastDays())} loading={report.isFetching}>
          Refresh
        </Button>
      </Group>
      <ReportChart
        title={`Events in the last ${HARDWARE_REPORT_DAYS} days`}
        report={report.data?.report}
        isLoading={report.isPending}
        error={report.error}
        formatLabel={reportDayLabel}
        seriesHeader="Event Name"
        kind="bar"
        emptyText={NO_HARDWARE_EVENTS_TEXT}
        testId="hardware-report"
      />
    </Stack>
  );
}
