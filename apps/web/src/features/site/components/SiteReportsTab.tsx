import { Alert, Box } from '@mantine/core';
import { isAllowedReportUrl } from '@plinth/shared';
import { QueryGate } from '../../../components/QueryGate';
import { usePublicConfig } from '../../../lib/api/get-public-config';

export const REPORT_URL_MISCONFIGURED = 'The site report URL is misconfigured, please contact Support';

/**
 * The site's external analytics report in a frame, under an overlay that blocks clicks. A URL
 * outside the allowed report-provider prefix is not framed.
 */
export function SiteReportsTab({ reportUrl }: { reportUrl: string }) {
  const config = usePublicConfig();
  return (
    <QueryGate query={config} loading="Loading report" failed="The report cannot be shown right now.">
      {({ reportUrlPrefix }) => <ReportFrame reportUrl={reportUrl} prefix={reportUrlPrefix ?? ''} />}
    </QueryGate>
  );
}

function ReportFrame({ reportUrl, prefix }: { reportUrl: string; prefix: string }) {
  const allowed = prefix.length > 0 && /^https:\/\//i.test(reportUrl) && isAllowedReportUrl(reportUrl, prefix);
  if (!allowed) {
    return (
      <Alert color="red" role="alert">
        {REPORT_URL_MISCONFIGURED}
      </Alert>
    );
  }
  return (
    <Box pos="relative" h="75vh">
      <iframe
        title="Site report"
        src={reportUrl}
        style={{ width: '100%', height: '100%', border: 0 }}
        sandbox="allow-scripts allow-same-origin allow-popups"
        referrerPolicy="no-referrer"
      />
      <Box pos="absolute" inset={0} data-testid="report-overlay" style={{ cursor: 'default' }} aria-hidden />
    </Box>
  );
}
