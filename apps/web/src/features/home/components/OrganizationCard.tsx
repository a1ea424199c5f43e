import { ThemeIcon } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import type { OrganizationSummary } from '@plinth/shared';
import { paths } from '../../../lib/paths';
import { HomeCard } from './HomeCard';

/** An organization on home; not clickable when the user sees it only through a site or exhibit grant. */
export function OrganizationCard({ organization }: { organization: OrganizationSummary }) {
  const canOpen = organization.role !== null || organization.isAdmin;
  return (
    <HomeCard
      title={organization.name}
      to={canOpen ? paths.organization(organization.id, 'sites') : null}
      icon={
        <ThemeIcon variant="light" color="indigo" radius="md">
          <IconBuilding size={18} aria-hidden />
        </ThemeIcon>
      }
    />
  );
}
