import { ThemeIcon } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import type { OrganizationSummary } from '@plinth/shared';
import { paths } from '../../../lib/paths';
import { HomeCard } from './HomeCard';

/** Says why an organization card does not open. */
export const ORGANIZATION_CLOSED_HINT = 'You have access to some of its sites or exhibits only.';

/** An organization on home; not clickable (and saying why) when the user sees it only through a site or exhibit grant. */
export function OrganizationCard({ organization }: { organization: OrganizationSummary }) {
  const canOpen = organization.role !== null || organization.isAdmin;
  return (
    <HomeCard
      title={organization.name}
      to={canOpen ? paths.organization(organization.id, 'sites') : null}
      closedHint={ORGANIZATION_CLOSED_HINT}
      icon={
        <ThemeIcon variant="light" color="indigo" radius="md">
          <IconBuilding size={18} aria-hidden />
        </ThemeIcon>
      }
    />
  );
}
