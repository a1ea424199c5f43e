import { ThemeIcon } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { SiteSummary } from '@plinth/shared';
import { paths } from '../../../lib/paths';
import { HomeCard } from './HomeCard';

/** Says why a site card does not open. */
export const SITE_CLOSED_HINT = 'You have access to some of its exhibits only.';

/** A site on home; it opens on its exhibits tab when the user holds a role on it (not only on one of its exhibits), else says why not. */
export function SiteCard({ site }: { site: SiteSummary }) {
  return (
    <HomeCard
      title={site.name}
      subtitle={site.organizationName}
      to={site.role ? paths.site(site.organizationId, site.id, 'exhibits') : null}
      closedHint={SITE_CLOSED_HINT}
      icon={
        <ThemeIcon variant="light" color="teal" radius="md">
          <IconMapPin size={18} aria-hidden />
        </ThemeIcon>
      }
    />
  );
}
