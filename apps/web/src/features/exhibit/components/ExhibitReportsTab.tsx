import { Button, Group, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ExhibitReportQuery, REPORT_INTERVALS, SETTING_IDS, type Exhibit } from '@plinth/shared';
import { DateRangeFields } from '../../../components/DateRangeFields';
import { ReportChart } from '../../../components/reports/ReportChart';
import { useSite } from '../../../lib/api/get-site';
import { rangeBefore, viewerTimeZone } from '../../../lib/date-range';
import { formatDate } from '../../../lib/format-date';
import { paths } from '../../../lib/paths';
import { schemaResolver } from '../../../lib/schema-resolver';
import { useExhibitReport, type ExhibitReportParams } from '../api/get-exhibit-report';

/** The default range of the reports: the last 3 days (spec section 9). */
export const DEFAULT_REPORT_RANGE_MS = 3 * 24 * 60 * 60 * 1000;
/** The default interval: 4 hours (spec section 9). */
export const DEFAULT_REPORT_INTERVAL_S = 14_400;
/** The minutes the pickers step by (spec 2.8). */
export const REPORT_PICKER_STEP_MIN = 10;
export const NO_EVENTS_TEXT = 'No events in this range.';

type Values = { start: Date; end: Date; interval: string };

const INTERVAL_OPTIONS = REPORT_INTERVALS.map((i) => ({ value: String(i.seconds), label: i.label }));
const FIELD_LABELS: Record<string, string> = { start: 'Start', end: 'End', interval: 'Interval' };
const FIELDS = new Set(Object.keys(FIELD_LABELS));

/** A bucket start as the charts label it, in the viewer's zone: 03-14 16:00. */
export const reportBucketLabel = (iso: string) => formatDate(iso, 'reportBucket', iso);

/** The site's external report URL, when the site has one set. */
function externalReportUrl(settings: { idString: string; value: string }[] | undefined): string {
  return settings?.find((s) => s.idString === SETTING_IDS.reportUrl)?.value.trim() ?? '';
}

/**
 * The exhibit's Reports tab (spec 2.8): Start and End (10-minute steps, the end following the
 * start), the Interval, Fetch, and the Total Events and Events by Value charts, their labels the
 * bucket starts in the viewer's zone. With an external report set on the site, View External Report
 * opens the site's Reports tab, which shows it.
 */
export function ExhibitReportsTab({ exhibit }: { exhibit: Pick<Exhibit, 'id' | 'siteId' | 'organizationId'> }) {
  const [timeZone] = useState(viewerTimeZone);
  const toQuery = (values: Values) => ({
    exhibitId: exhibit.id,
    start: values.start.getTime(),
    end: values.end.getTime(),
    interval: Number(values.interval),
    timeZone,
  });
  const resolve = schemaResolver<ReturnType<typeof toQuery>>(ExhibitReportQuery);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { ...rangeBefore(DEFAULT_REPORT_RANGE_MS), interval: String(DEFAULT_REPORT_INTERVAL_S) },
    // The shared query schema checks the range and that the interval gives at most MAX_REPORT_BUCKETS buckets.
    validate: (values) =>
      Object.fromEntries(
        Object.entries(resolve(toQuery(values)))
          .filter(([field]) => FIELDS.has(field))
          .map(([field, message]) => [field, `${FIELD_LABELS[field]} ${String(message)}`]),
      ),
  });
  const [applied, setApplied] = useState<Omit<ExhibitReportParams, 'filter'>>(() => {
    const { exhibitId: _id, ...query } = toQuery(form.values);
    return query;
  });
  const total = useExhibitReport(exhibit.id, { ...applied, filter: null });
  const byValue = useExhibitReport(exhibit.id, { ...applied, filter: 'value' });
  const site = useSite(exhibit.siteId);
  const hasExternalReport = externalReportUrl(site.data?.sitesettings).length > 0;

  const apply = (values: Values) => {
    const { exhibitId: _id, ...next } = toQuery(values);
    if (next.start === applied.start && next.end === applied.end && next.interval === applied.interval) {
      void total.refetch();
      void byValue.refetch();
    }
    setApplied(next);
  };

  return (
    <Stack gap="lg">
      <form onSubmit={form.onSubmit(apply)} aria-label="Report range">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <DateRangeFields
            value={{ start: form.values.start, end: form.values.end }}
            onChange={(range) => {
              form.setValues(range);
              form.clearErrors();
            }}
            minutesStep={REPORT_PICKER_STEP_MIN}
          />
          <Select
            label="Interval"
            data={INTERVAL_OPTIONS}
            allowDeselect={false}
            w={120}
            {...form.getInputProps('interval')}
            onChange={(value) => {
              if (value) form.setFieldValue('interval', value);
              form.clearErrors();
            }}
          />
          <Button type="submit" mt={25}>
            Fetch
          </Button>
          {hasExternalReport && (
            <Button
              component={Link}
              to={paths.site(exhibit.organizationId, exhibit.siteId, 'reports')}
              variant="default"
              mt={25}
              rightSection={<IconExternalLink size={16} aria-hidden />}
            >
              View External Report
            </Button>
          )}
        </Group>
      </form>
      <ReportChart
        title="Total Events"
        report={total.data?.report}
        isLoading={total.isPending}
        error={total.error}
        formatLabel={reportBucketLabel}
        seriesHeader="Event Name"
        kind="line"
        emptyText={NO_EVENTS_TEXT}
        testId="report-total"
      />
      <ReportChart
        title="Events by Value"
        report={byValue.data?.report}
        isLoading={byValue.isPending}
        error={byValue.error}
        formatLabel={reportBucketLabel}
        seriesHeader="Value"
        kind="line"
        emptyText={NO_EVENTS_TEXT}
        testId="report-by-value"
      />
    </Stack>
  );
}
