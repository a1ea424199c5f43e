import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { QueryGate } from '../../../components/QueryGate';
import { useOrganization } from '../../../lib/api/get-organization';
import { useExhibitsBySites } from '../../../lib/api/list-exhibits-by-sites';
import { errorText } from '../../../lib/mutation-state';
import { paths } from '../../../lib/paths';
import { useDownloadAuditCsv } from '../api/download-audit-csv';
import { useAuditEntries, type AuditFilter } from '../api/list-audit-entries';
import { filterFromParams, paramsFromFilter } from '../lib/audit-filter-params';
import { AuditFilters } from './AuditFilters';
import { AuditTable } from './AuditTable';

/**
 * The organization's audit log (/organization/:orgId/audit-log, issue 20): every change a person or
 * an API key made, newest first, filtered by site, exhibit, board, person, action and time (the
 * filters live in the address, so the exhibit and board pages link to their own entries), paged
 * by the server, with a CSV of the same filters. Organization managers and platform admins only:
 * anyone else sees the server's refusal.
 */
export function AuditLogPage() {
  const { orgId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  const organization = useOrganization(orgId);
  const org = organization.data;
  const siteIds = org?.sites.map((s) => s.id) ?? [];
  const exhibits = useExhibitsBySites(siteIds);
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const site of org?.sites ?? []) map.set(site.id, site.name);
    for (const exhibit of exhibits.data?.exhibits ?? []) map.set(exhibit.id, exhibit.name);
    return map;
  }, [org, exhibits.data]);
  const download = useDownloadAuditCsv(orgId);
  const filterKey = params.toString();

  return (
    <Stack gap="md">
      <Group>
        <Button component={Link} to={paths.organization(orgId, 'settings')} variant="subtle" leftSection={<IconArrowLeft size={16} />}>
          {org?.name ?? 'Organization'}
        </Button>
      </Group>
      <Group justify="space-between">
        <Title order={2}>Audit log</Title>
        <Button leftSection={<IconDownload size={16} />} variant="light" loading={download.isPending} onClick={() => download.mutate(filter)}>
          Download CSV
        </Button>
      </Group>
      {download.isError && (
        <Alert color="red" role="alert">
          The CSV could not be downloaded. {errorText(download.error, '')}
        </Alert>
      )}
      {filter.hardwareId && <Text size="sm">Showing the entries of one board.</Text>}
      <AuditFilters
        key={`filters-${filterKey}`}
        filter={filter}
        sites={org?.sites ?? []}
        exhibits={exhibits.data?.exhibits ?? []}
        onChange={(next) => setParams(paramsFromFilter(next))}
      />
      <AuditPages key={`pages-${filterKey}`} organizationId={orgId} filter={filter} names={names} />
    </Stack>
  );
}

/** The pages of one filter: Newer and Older walk the server's cursors (a new filter starts again at the newest). */
function AuditPages({ organizationId, filter, names }: { organizationId: string; filter: AuditFilter; names: ReadonlyMap<string, string> }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const entries = useAuditEntries(organizationId, filter, cursor);
  return (
    <QueryGate query={entries} loading="Loading the audit log" failed="The audit log cannot be shown right now.">
      {(page) => (
        <Stack gap="sm">
          {page.entries.length === 0 ? (
            <Text c="dimmed">No change matches these filters.</Text>
          ) : (
            <AuditTable entries={page.entries} names={names} />
          )}
          <Group justify="space-between">
            <Button variant="default" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </Button>
            <Text size="sm" c="dimmed">
              Page {cursors.length + 1}
            </Text>
            <Button variant="default" disabled={!page.nextCursor} onClick={() => page.nextCursor && setCursors([...cursors, page.nextCursor])}>
              Older
            </Button>
          </Group>
        </Stack>
      )}
    </QueryGate>
  );
}
