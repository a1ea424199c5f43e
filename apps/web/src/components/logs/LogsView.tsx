import { Alert, Button, Checkbox, Group, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { BREAKPOINT_NARROW_PX, LOG_LEVELS, LOGS_PER_PAGE, type LogLevel } from '@plinth/shared';
import { useDownloadLogsCsv } from '../../lib/api/download-logs-csv';
import { useLogs, type LogSource } from '../../lib/api/list-logs';
import { countLabel } from '../../lib/count-label';
import { rangeBefore, withEnd, type DateRange } from '../../lib/date-range';
import { formatDate } from '../../lib/format-date';
import { errorText } from '../../lib/mutation-state';
import { DateRangeFields } from '../DateRangeFields';
import { LogTable, type LogRowData } from './LogTable';
import { useLiveLogs } from './useLiveLogs';

/** The default range of the logs view: the last 24 hours (spec section 9). */
export const DEFAULT_LOG_RANGE_MS = 24 * 60 * 60 * 1000;
export const NO_LOGS_TEXT = 'No logs in this range.';
export const NO_LIVE_LOGS_TEXT = 'Waiting for new log lines…';

type Applied = { start: number; end: number };

/** 'Displaying 21 - 40 of 57 results' for page 1 (from 0) of 57 logs. */
export function pagerText(pageIdx: number, total: number): string {
  const first = total === 0 ? 0 : pageIdx * LOGS_PER_PAGE + 1;
  const last = Math.min((pageIdx + 1) * LOGS_PER_PAGE, total);
  return `Displaying ${first} - ${last} of ${countLabel(total, 'result')}`;
}

/**
 * The logs of an exhibit or a hardware unit (spec 2.7, 2.13 and section 4): Start and End, Fetch,
 * Live, Download CSV (hidden in live mode), the four level filters (a change goes back to the
 * first page), the table (cards at 800 px or less), the pager of 20 and the range message. Live
 * mode shows the lines arriving on the socket instead, newest on top, each highlighted for a
 * second; leaving it sets the end to now and reads the range again.
 */
export function LogsView({ source }: { source: LogSource }) {
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const form = useForm<DateRange>({ mode: 'controlled', initialValues: rangeBefore(DEFAULT_LOG_RANGE_MS) });
  const [applied, setApplied] = useState<Applied>(() => ({ start: form.values.start.getTime(), end: form.values.end.getTime() }));
  const [pageIdx, setPageIdx] = useState(0);
  const [levels, setLevels] = useState<LogLevel[]>([...LOG_LEVELS]);
  const [live, setLive] = useState(false);

  const logs = useLogs(source, { ...applied, pageIdx, levels }, !live);
  const liveLogs = useLiveLogs(source, live);
  const csv = useDownloadLogsCsv(source);

  const fetchRange = (range: DateRange) => {
    const next = { start: range.start.getTime(), end: range.end.getTime() };
    if (next.start === applied.start && next.end === applied.end && pageIdx === 0) void logs.refetch();
    setApplied(next);
    setPageIdx(0);
  };

  const toggleLive = () => {
    if (live) {
      // Leaving live: the range now ends now, and is read again.
      const range = withEnd(form.values, new Date());
      form.setValues(range);
      setApplied({ start: range.start.getTime(), end: range.end.getTime() });
      setPageIdx(0);
    }
    setLive(!live);
  };

  const toggleLevel = (level: LogLevel, on: boolean) => {
    setLevels((current) => (on ? LOG_LEVELS.filter((l) => l === level || current.includes(l)) : current.filter((l) => l !== level)));
    setPageIdx(0);
  };

  const total = logs.data?.numLogs ?? 0;
  const rows: LogRowData[] = live
    ? liveLogs.rows.filter((row) => levels.includes(row.level))
    : (logs.data?.logs ?? []).map((entry) => ({ key: entry.id, level: entry.level, message: entry.message, eventType: entry.eventType, createdAt: entry.createdAt }));

  return (
    <Stack gap="md">
      <form onSubmit={form.onSubmit(fetchRange)} aria-label="Log range">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <DateRangeFields value={form.values} onChange={(range) => form.setValues(range)} disabled={live} />
          <Button type="submit" disabled={live}>
            Fetch
          </Button>
          <Button type="button" variant={live ? 'filled' : 'default'} color={live ? 'red' : undefined} aria-pressed={live} onClick={toggleLive}>
            Live
          </Button>
          {!live && (
            <Button
              type="button"
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={csv.isPending}
              onClick={() => csv.mutate({ start: form.values.start.getTime(), end: form.values.end.getTime() })}
            >
              Download CSV
            </Button>
          )}
        </Group>
      </form>
      <Group gap="md" role="group" aria-label="Log levels">
        {LOG_LEVELS.map((level) => (
          <Checkbox key={level} label={level} checked={levels.includes(level)} onChange={(event) => toggleLevel(level, event.currentTarget.checked)} />
        ))}
      </Group>
      <Group gap="xs">
        <Text size="sm" data-testid="log-range-text">
          {live ? 'Displaying live logs.' : `Displaying logs from ${formatDate(applied.start, 'log')} to ${formatDate(applied.end, 'log')}`}
        </Text>
        {!live && logs.isFetching && <Loader size="xs" aria-label="Loading logs" />}
      </Group>
      {!live && csv.error && (
        <Alert color="red" role="alert" title="The CSV could not be downloaded">
          {errorText(csv.error, 'Please try again.')}
        </Alert>
      )}
      {live && liveLogs.lease.error && (
        <Alert color="red" role="alert" title="Live logs could not be switched on">
          {errorText(liveLogs.lease.error, 'Please try again.')}
        </Alert>
      )}
      {!live && logs.isError ? (
        <Alert color="red" role="alert" title="The logs could not be loaded">
          {errorText(logs.error, 'Please try again.')}
        </Alert>
      ) : !live && logs.isPending ? null : rows.length === 0 ? (
        <Text c="dimmed">{live ? NO_LIVE_LOGS_TEXT : NO_LOGS_TEXT}</Text>
      ) : (
        <LogTable rows={rows} narrow={narrow} />
      )}
      {!live && total > 0 && !logs.isError && (
        <Group justify="space-between" role="navigation" aria-label="Log pages">
          <Text size="sm" data-testid="log-pager-text">
            {pagerText(pageIdx, total)}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={pageIdx === 0} onClick={() => setPageIdx((p) => Math.max(0, p - 1))}>
              Previous
            </Button>
            <Button variant="default" size="xs" disabled={(pageIdx + 1) * LOGS_PER_PAGE >= total} onClick={() => setPageIdx((p) => p + 1)}>
              Next
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}
