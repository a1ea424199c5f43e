import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, type Organization } from '@plinth/shared';
import { createSite, useOrganizationSites } from '../../../api/organizations';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { creationError } from '../lib/creation-error';

/** The organization's sites: search, Create Site (canCreate), each site opening on its exhibits tab. */
export function OrganizationSitesTab({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const sites = useOrganizationSites(organization.id);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);

  const all = sites.data?.sites ?? organization.sites;
  const shown = all.filter((s) => matchesSearch(s.name, search)).sort((a, b) => a.name.localeCompare(b.name));

  const handleCreate = async (name: string) => {
    try {
      await createSite(name, organization.id);
    } catch (e) {
      throw creationError(e, 'Site');
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.organizationSites(organization.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.organization(organization.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites }),
      queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists }),
    ]);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <TextInput
          placeholder="Search for a site"
          aria-label="Search for a site"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setSearch('');
          }}
          style={{ flex: 1, maxWidth: 480 }}
        />
        {organization.canCreate && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create Site
          </Button>
        )}
      </Group>
      {sites.isPending && all.length === 0 ? (
        <Loader aria-label="Loading sites" />
      ) : shown.length === 0 ? (
        <Text c="dimmed">{all.length === 0 ? 'No sites available yet.' : 'No sites match the search criteria.'}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {shown.map((site) => (
            <Card key={site.id} withBorder component={Link} to={paths.site(organization.id, site.id, 'exhibits')} padding="md">
              <Text fw={600}>{site.name}</Text>
              <Text size="sm" c="dimmed">
                {site.organizationName}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <NameDialog
        opened={creating}
        onClose={() => setCreating(false)}
        title="Create Site"
        label="Name"
        confirmLabel="Create"
        onSubmit={handleCreate}
        errorFallback="Error: Could not create Site"
      />
    </Stack>
  );
}
