import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { createOrganization } from '../../../api/organizations';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../app/paths';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { ApiError } from '../../../lib/api-client';

const CREATE_FAILED = 'Error: Could not create Organization';

/**
 * 'Create Organization' and its name dialog. A taken name shows the catalogue text
 * ('Organization name already taken.'); other failures the server's message. After creation the
 * new organization opens on its sites tab.
 */
export function CreateOrganizationButton() {
  const [opened, dialog] = useDisclosure(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const handleCreate = async (name: string) => {
    const organization = await createOrganization(name).catch((error: unknown) => {
      // An answer without a server message (a proxy error page, say) gets the spec's generic text.
      throw error instanceof ApiError && error.response === undefined && error.status !== 0
        ? new Error(CREATE_FAILED)
        : error;
    });
    await queryClient.invalidateQueries({ queryKey: queryKeys.organizations });
    navigate(paths.organization(organization.id, 'sites'));
  };

  return (
    <>
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={dialog.open}>
        Create Organization
      </Button>
      <NameDialog
        opened={opened}
        onClose={dialog.close}
        title="Create Organization"
        label="Organization name"
        confirmLabel="Create"
        onSubmit={handleCreate}
        errorFallback={CREATE_FAILED}
      />
    </>
  );
}
