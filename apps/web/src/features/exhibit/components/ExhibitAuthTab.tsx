import { ActionIcon, Alert, Button, Code, CopyButton, Group, Loader, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { can, TOKEN_DATE_LENGTH, type Exhibit, type Token } from '@plinth/shared';
import { createExhibitToken, deleteExhibitToken, useExhibitTokens } from '../../../api/exhibit-runtime';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { NameDialog } from '../../../components/dialogs/NameDialog';

export const EXHIBIT_TOKEN_WARNING = 'Please save this exhibit token somewhere safe. This value will disappear when you leave this page.';

/** A value with a Copy button that reads Copied for a moment after copying. */
function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ overflowWrap: 'anywhere' }} aria-label={label}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="xs"
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={copy}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * The auth tab (spec 2.12): the exhibit id to copy, its tokens (managers may delete them) and
 * Create new token. An exhibit without tokens gets one at once, named after the exhibit; a new
 * token's value is shown this once, with a warning to save it.
 */
export function ExhibitAuthTab({ exhibit }: { exhibit: Exhibit }) {
  const queryClient = useQueryClient();
  const canCreate = can(exhibit.role, 'createToken');
  const canDelete = can(exhibit.role, 'deleteToken');
  const tokens = useExhibitTokens(exhibit.id, canCreate);
  const [created, setCreated] = useState<(Token & { token: string }) | null>(null);
  const [naming, setNaming] = useState(false);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [autoError, setAutoError] = useState<string | null>(null);
  const autoCreated = useRef(false);

  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: queryKeys.exhibitTokens(exhibit.id),
    });

  const create = async (name: string) => {
    const token = await createExhibitToken(exhibit.id, name);
    setCreated(token);
    await refresh();
  };

  // Decided on the first answer only: deleting the last token later does not create another.
  const firstAnswer = tokens.isSuccess ? tokens.data.tokens.length : null;
  useEffect(() => {
    if (firstAnswer === null || autoCreated.current) return;
    autoCreated.current = true;
    if (firstAnswer > 0 || !canCreate) return;
    create(exhibit.name).catch((e: unknown) => {
      console.error('Could not create the first exhibit token', e);
      setAutoError(e instanceof Error ? e.message : 'The token could not be created.');
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on the first answer
  }, [firstAnswer === null]);

  useEffect(() => {
    if (tokens.isError) console.error('Could not get the tokens of this exhibit', tokens.error);
  }, [tokens.isError, tokens.error]);

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Title order={4} mb="xs">
          Exhibit ID
        </Title>
        <CopyValue value={exhibit.id} label="Exhibit ID" />
      </Paper>
      {created && (
        <Alert color="yellow" variant="light" title={`Token ${created.name}`}>
          <Stack gap="xs">
            <Text size="sm">{EXHIBIT_TOKEN_WARNING}</Text>
            <CopyValue value={created.token} label="New exhibit token" />
          </Stack>
        </Alert>
      )}
      {autoError && (
        <Alert color="red" variant="light" role="alert">
          {autoError}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={4}>Tokens</Title>
          {canCreate && <Button onClick={() => setNaming(true)}>Create new token</Button>}
        </Group>
        {tokens.isPending && canCreate ? (
          <Loader size="sm" aria-label="Loading tokens" />
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Created</Table.Th>
                {canDelete && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(tokens.data?.tokens ?? []).map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{t.name}</Table.Td>
                  <Table.Td>{t.createdAt.slice(0, TOKEN_DATE_LENGTH)}</Table.Td>
                  {canDelete && (
                    <Table.Td>
                      <Tooltip label="Delete token">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete token ${t.name}`} onClick={() => setDeleting(t)}>
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
      </Paper>
      <NameDialog
        opened={naming}
        onClose={() => setNaming(false)}
        title="Create new token"
        label="Name"
        initialValue={exhibit.name}
        confirmLabel="Create"
        onSubmit={create}
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete token"
        message={`Delete the token ${deleting?.name ?? ''}? Exhibits using it are disconnected and can no longer authenticate with it.`}
        confirmLabel="Delete"
        cancelLabel="Cancel"
        danger
        onConfirm={async () => {
          await deleteExhibitToken(deleting!.id);
          if (created?.id === deleting!.id) setCreated(null);
          await refresh();
        }}
      />
    </Stack>
  );
}
