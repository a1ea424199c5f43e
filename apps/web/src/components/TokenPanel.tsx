import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Token } from '@plinth/shared';
import { formatTokenDate } from '../lib/format-date';
import { errorText } from '../lib/mutation-state';
import { CopyValue } from './CopyValue';
import { ConfirmDialog } from './dialogs/ConfirmDialog';
import { NameDialog } from './dialogs/NameDialog';
import { RowDeleteButton } from './RowDeleteButton';

/** A token as its create call answers it: the only time its secret value is known. */
export type NewToken = Token & { token: string };

/** The owner's create-token mutation, called with the new token's name; it refreshes the list itself. */
export type CreateTokenMutation = Pick<UseMutationResult<NewToken, Error, string>, 'mutateAsync' | 'isPending' | 'error' | 'reset'>;

/** The owner's delete-token mutation, called with the token id; it refreshes the list itself. */
export type DeleteTokenMutation = Pick<UseMutationResult<unknown, Error, string>, 'mutateAsync' | 'isPending' | 'error' | 'reset'>;

/** The texts that differ between the exhibit's and the hardware's auth tab. */
export type TokenPanelTexts = {
  /** Title of the id box, also the accessible name of the id value (e.g. 'Exhibit ID'). */
  idTitle: string;
  /** Title of the box that shows a new token's value. */
  newTokenTitle: (tokenName: string) => string;
  /** Accessible name of a new token's value. */
  newTokenLabel: string;
  /** The spec's warning to save a new token, verbatim. */
  warning: string;
  /** Makes the Copy buttons read 'Copy <id>' / 'Copy <token>'; without it they read just Copy / Copied. */
  copyNames?: { id: string; token: string };
  /** Accessible name of the token table. */
  tableLabel: string;
  /** Shown instead of the table when there are no tokens; without it the empty table shows. */
  empty?: string;
  /** Shown instead of the table when the list could not be loaded; without it the empty table shows. */
  loadFailed?: string;
  /** Shown when creating a token fails without a message of its own. */
  createFailed: string;
  /** Body of the delete confirmation, saying what happens to devices using the token. */
  deleteMessage: (tokenName: string) => string;
  /** Confirm and cancel labels of the delete confirmation (default Yes / No). */
  deleteConfirmLabel?: string;
  deleteCancelLabel?: string;
  /** Names the owner in console messages (e.g. 'exhibit'). */
  ownerKind: string;
};

export type TokenPanelProps = {
  /** The exhibit or hardware id, shown with Copy. */
  ownerId: string;
  /** The owner's name: the name of the automatic first token and the create dialog's default. */
  ownerName: string;
  /** The owner's tokens; undefined until the list has been loaded. */
  tokens: Token[] | undefined;
  isLoading: boolean;
  isError: boolean;
  canCreate: boolean;
  canDelete: boolean;
  create: CreateTokenMutation;
  remove: DeleteTokenMutation;
  texts: TokenPanelTexts;
};

/**
 * The token part of an auth tab (exhibit spec 2.12, hardware 2.13): the owner's id with Copy, its
 * tokens (name, created date, delete when allowed) and Create new token. When the first answer
 * shows no tokens and the user may create one, one named after the owner is created at once;
 * deleting the last token later does not create another. A new token's value is shown this once,
 * with the warning to save it.
 */
export function TokenPanel(props: TokenPanelProps) {
  const { ownerId, ownerName, tokens, isLoading, isError, canCreate, canDelete, create, remove, texts } = props;
  const [created, setCreated] = useState<NewToken | null>(null);
  const [naming, setNaming] = useState(false);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [autoError, setAutoError] = useState<string | null>(null);
  const autoCreated = useRef(false);

  const handleCreate = async (name: string) => setCreated(await create.mutateAsync(name));

  // Decided on the first answer only.
  const firstAnswer = tokens ? tokens.length : null;
  useEffect(() => {
    if (firstAnswer === null || autoCreated.current) return;
    autoCreated.current = true;
    if (firstAnswer > 0 || !canCreate) return;
    handleCreate(ownerName).catch((e: unknown) => {
      console.error(`Could not create the first ${texts.ownerKind} token`, e);
      setAutoError(errorText(e, texts.createFailed));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on the first answer
  }, [firstAnswer === null]);

  const handleDelete = async () => {
    if (!deleting) return;
    await remove.mutateAsync(deleting.id);
    if (created?.id === deleting.id) setCreated(null);
  };

  const list = tokens ?? [];
  const renderList = () => {
    if (isLoading) return <Loader size="sm" aria-label="Loading tokens" />;
    if (isError && texts.loadFailed) return <Text c="red">{texts.loadFailed}</Text>;
    if (tokens && list.length === 0 && texts.empty) return <Text c="dimmed">{texts.empty}</Text>;
    return (
      <Table aria-label={texts.tableLabel}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Created</Table.Th>
            {canDelete && <Table.Th aria-label="Actions" />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{token.name}</Table.Td>
              <Table.Td>{formatTokenDate(token.createdAt)}</Table.Td>
              {canDelete && (
                <Table.Td>
                  <RowDeleteButton tooltip="Delete token" label={`Delete token ${token.name}`} onClick={() => setDeleting(token)} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Title order={4} mb="xs">
          {texts.idTitle}
        </Title>
        <CopyValue value={ownerId} label={texts.idTitle} copyName={texts.copyNames?.id} />
      </Paper>
      {created && (
        <Alert color="yellow" variant="light" title={texts.newTokenTitle(created.name)}>
          <Stack gap="xs">
            <Text size="sm">{texts.warning}</Text>
            <CopyValue value={created.token} label={texts.newTokenLabel} copyName={texts.copyNames?.token} testId="new-token" />
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
        {renderList()}
      </Paper>
      <NameDialog
        opened={naming}
        onClose={() => setNaming(false)}
        title="Create new token"
        label="Name"
        initialValue={ownerName}
        confirmLabel="Create"
        onSubmit={handleCreate}
        mutation={create}
        errorFallback={texts.createFailed}
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete token"
        message={texts.deleteMessage(deleting?.name ?? '')}
        confirmLabel={texts.deleteConfirmLabel}
        cancelLabel={texts.deleteCancelLabel}
        danger
        onConfirm={handleDelete}
        mutation={remove}
      />
    </Stack>
  );
}
