import { ActionIcon, Alert, Button, Code, CopyButton, Group, Loader, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { TOKEN_DATE_LENGTH, type Hardware, type Token } from '@plinth/shared';
import { createHardwareToken, deleteHardwareToken, useHardwareTokens } from '../../../api/hardware-runtime';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { NameDialog } from '../../../components/dialogs/NameDialog';

export const TOKEN_WARNING = 'Please save this hardware token somewhere safe. This value will disappear when you leave this page.';

function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="xs" variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * The hardware's auth tab (spec 2.13): its ID with Copy, its tokens (name, created date, delete
 * for managers) and Create new token. With no token at all, one named after the hardware is
 * created on arrival. A new token's value is shown once, on this page only.
 */
export function HardwareAuthTab({ hardware, canDeleteTokens }: { hardware: Hardware; canDeleteTokens: boolean }) {
  const queryClient = useQueryClient();
  const tokens = useHardwareTokens(hardware.id);
  const [created, setCreated] = useState<(Token & { token: string }) | null>(null);
  const [dialog, setDialog] = useState<'create' | null>(null);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [error, setError] = useState<string | null>(null);
  const autoCreated = useRef(false);

  const create = async (name: string) => {
    const token = await createHardwareToken(hardware.id, name);
    setCreated(token);
    await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareTokens(hardware.id) });
  };

  const isEmpty = tokens.isSuccess && tokens.data.tokens.length === 0;
  useEffect(() => {
    if (!isEmpty || autoCreated.current) return;
    autoCreated.current = true;
    create(hardware.name).catch((e: unknown) => {
      console.error('Could not create the hardware token', e);
      setError('Could not create a hardware token.');
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once when the list is known to be empty
  }, [isEmpty]);

  const handleDelete = async () => {
    if (!deleting) return;
    await deleteHardwareToken(deleting.id);
    if (created?.id === deleting.id) setCreated(null);
    await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareTokens(hardware.id) });
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={4}>Hardware ID</Title>
          <Group gap="sm" wrap="nowrap">
            <Code style={{ overflowWrap: 'anywhere' }}>{hardware.id}</Code>
            <CopyValue value={hardware.id} label="hardware ID" />
          </Group>
        </Stack>
      </Paper>
      {created && (
        <Alert color="yellow" variant="light" title="New hardware token">
          <Stack gap="xs">
            <Text size="sm">{TOKEN_WARNING}</Text>
            <Group gap="sm" wrap="nowrap">
              <Code data-testid="new-token" style={{ overflowWrap: 'anywhere' }}>
                {created.token}
              </Code>
              <CopyValue value={created.token} label="hardware token" />
            </Group>
          </Stack>
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {error}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={4}>Tokens</Title>
            <Button onClick={() => setDialog('create')}>Create new token</Button>
          </Group>
          {tokens.isPending ? (
            <Loader aria-label="Loading tokens" />
          ) : tokens.isError ? (
            <Text c="red">Could not load the tokens of this hardware.</Text>
          ) : tokens.data.tokens.length === 0 ? (
            <Text c="dimmed">No tokens yet.</Text>
          ) : (
            <Table aria-label="Hardware tokens">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Created</Table.Th>
                  {canDeleteTokens && <Table.Th aria-label="Actions" />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.tokens.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{token.name}</Table.Td>
                    <Table.Td>{token.createdAt.slice(0, TOKEN_DATE_LENGTH)}</Table.Td>
                    {canDeleteTokens && (
                      <Table.Td>
                        <Tooltip label="Delete token">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete token ${token.name}`} onClick={() => setDeleting(token)}>
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Paper>
      <NameDialog
        opened={dialog === 'create'}
        onClose={() => setDialog(null)}
        title="Create new token"
        label="Name"
        initialValue={hardware.name}
        confirmLabel="Create"
        onSubmit={create}
        errorFallback="Could not create a hardware token."
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete token"
        message={`Delete the token ${deleting?.name ?? ''}? A board using it is disconnected and refused at its next connect.`}
        danger
        onConfirm={handleDelete}
      />
    </Stack>
  );
}
