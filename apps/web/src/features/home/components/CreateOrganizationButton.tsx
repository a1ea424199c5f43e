import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { NameDialog } from '../../../components/dialogs/NameDialog';
import { paths } from '../../../lib/paths';
import { CREATE_ORGANIZATION_FAILED, useCreateOrganization } from '../api/create-organization';

/** 'Create Organization' and its name dialog. After creation the new organization opens on its sites tab. */
export function CreateOrganizationButton() {
  const [opened, dialog] = useDisclosure(false);
  const navigate = useNavigate();
  const create = useCreateOrganization();

  const handleCreate = async (name: string) => {
    const organization = await create.mutateAsync(name);
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
        mutation={create}
        errorFallback={CREATE_ORGANIZATION_FAILED}
      />
    </>
  );
}
