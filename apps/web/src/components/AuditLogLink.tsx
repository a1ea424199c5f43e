import { Button } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useOrganization } from '../lib/api/get-organization';
import { paths } from '../lib/paths';

export type AuditLogLinkProps = {
  organizationId: string;
  /** Opens the log filtered to this site, exhibit or board. */
  filter?: { siteId?: string; exhibitId?: string; hardwareId?: string };
};

/**
 * "Audit log": a link to the organization's audit log (filtered to a thing when given), shown only
 * to who may read it: organization managers and platform admins (the organization's `isAdmin`).
 */
export function AuditLogLink({ organizationId, filter }: AuditLogLinkProps) {
  const organization = useOrganization(organizationId);
  if (!organization.data?.isAdmin) return null;
  return (
    <Button component={Link} to={paths.auditLog(organizationId, filter)} variant="subtle" size="compact-sm" leftSection={<IconHistory size={16} />}>
      Audit log
    </Button>
  );
}
