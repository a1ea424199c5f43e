import { Button, Card, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, type Organization, type SiteSummary } from '@plinth/shared';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { SearchableCardGrid } from '../../../components/SearchableCardGrid';
import { useOrganizationSites } from '../../../lib/api/list-organization-sites';
import { paths } from '../../../lib/paths';
import { useCreateSite } from '../api/create-site';

/** Sites whose name matches the search, by name. */
function filterSites(sites: SiteSummary[], search: string): SiteSummary[] {
  return sites.filter((s) => matchesSearch(s.name, search)).sort((a, b) => a.name.localeCompare(b.name));
}

/** The organization's sites: search, Create Site (canCreate), each site opening on its exhibits tab. */
export function OrganizationSitesTab({ organization }: { organization: Organization }) {
  const sites = useOrganizationSites(organization.id);
  const create = useCreateSite();
  const [creating, setCreating] = useState(false);
  const all = sites.data?.sites ?? organization.sites;

  return (
    <>
      <SearchableCardGrid
        items={all}
        filter={filterSites}
        renderCard={(site) => (
          <Card withBorder component={Link} to={paths.site(organization.id, site.id, 'exhibits')} padding="md">
            <Text fw={600}>{site.name}</Text>
            <Text size="sm" c="dimmed">
              {site.organizationName}
            </Text>
          </Card>
        )}
        searchPlaceholder="Search for a site"
        isLoading={sites.isPending && all.length === 0}
        loadingLabel="Loading sites"
        emptyText="No sites available yet."
        noMatchText="No sites match the search criteria."
        action={
          organization.canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create Site
            </Button>
          )
        }
      />
      <NameDialog
        opened={creating}
        onClose={() => setCreating(false)}
        title="Create Site"
        label="Name"
        confirmLabel="Create"
        onSubmit={(name) => create.mutateAsync({ organizationId: organization.id, name })}
        mutation={create}
        errorFallback="Error: Could not create Site"
      />
    </>
  );
}
