import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { ApiKey, CreatedApiKey, Organization } from '@plinth/shared';
import { CopyValue } from '../../../components/CopyValue';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { PageState } from '../../../components/PageState';
import { QueryGate } from '../../../components/QueryGate';
import { RowDeleteButton } from '../../../components/RowDeleteButton';
import { formatDate } from '../../../lib/format-date';
import { NO_VALUE } from '../../../lib/no-value';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/list-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';

function scopeText(key: ApiKey): string {
  if (!key.sites) return 'Whole organization';
  return key.sites.length ? key.sites.map((s) => s.name).join(', ') : 'No site (its sites were deleted)';
}

function statusOf(key: ApiKey, now: number): { label: string; color: string } | null {
  if (key.revokedAt) return { label: 'Revoked', color: 'gray' };
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now) return { label: 'Expired', color: 'orange' };
  return null;
}

/** The new key's value, shown this once with Copy. */
function NewKeyAlert({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  return (
    <Alert color="yellow" variant="light" title={`API key "${created.name}" created`} withCloseButton closeButtonLabel="Dismiss" onClose={onDismiss}>
      <Stack gap="xs">
        <Text size="sm">
          Copy the key now and keep it somewhere safe: you will not see it again. Send it with each call as the header <Code>Authorization: Bearer &lt;key&gt;</Code>.
        </Text>
        <CopyValue value={created.key} label="New API key" testId="new-api-key" />
      </Stack>
    </Alert>
  );
}

function ApiKeyTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const now = Date.now();
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const status = statusOf(key, now);
            return (
              <Table.Tr key={key.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Group gap="xs">
                    <Text size="sm">{key.name}</Text>
                    {status && (
                      <Badge size="sm" color={status.color} variant="light">
                        {status.label}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{scopeText(key)}</Table.Td>
                <Table.Td>{key.role.charAt(0) + key.role.slice(1).toLowerCase()}</Table.Td>
                <Table.Td>{key.expiresAt ? formatDate(key.expiresAt, 'value') : 'Never'}</Table.Td>
                <Table.Td>{formatDate(key.lastUsedAt, 'value')}</Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(key.createdAt, 'value')}</Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {key.createdBy}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {key.revokedAt ? (
                    <Text size="xs" c="dimmed">
                      {key.revokedBy ?? NO_VALUE}
                    </Text>
                  ) : (
                    <RowDeleteButton tooltip="Revoke key" label={`Revoke API key ${key.name}`} onClick={() => onRevoke(key)} />
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The organization's API keys (its managers and platform admins): the list (name, scope, role,
 * expiry, last used, created by and when), Create API key (the value shown once, with Copy), and
 * Revoke with a confirmation.
 */
export function OrganizationApiKeysTab({ organization }: { organization: Organization }) {
  const keys = useApiKeys(organization.id);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack gap="md">
      {created && <NewKeyAlert created={created} onDismiss={() => setCreated(null)} />}
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={4}>API keys</Title>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create API key
          </Button>
        </Group>
        <QueryGate query={keys} loading="Loading API keys" failed="The API keys of this organization cannot be shown right now.">
          {(data) =>
            data.keys.length === 0 ? (
              <PageState kind="empty" label="No API keys yet. Create one for automation that calls the Plinth API." />
            ) : (
              <ApiKeyTable keys={data.keys} onRevoke={setRevoking} />
            )
          }
        </QueryGate>
      </Paper>
      <CreateApiKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        sites={organization.sites}
        onSubmit={async (key) => setCreated(await create.mutateAsync({ organizationId: organization.id, key }))}
        mutation={create}
      />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke API key"
        message={`Revoke "${revoking?.name ?? ''}"? Every call made with it is refused from now on, on every server. This cannot be undone.`}
        confirmLabel="Revoke"
        cancelLabel="Cancel"
        danger
        onConfirm={() => revoke.mutateAsync({ organizationId: organization.id, keyId: revoking?.id ?? '' })}
        mutation={revoke}
      />
    </Stack>
  );
}
