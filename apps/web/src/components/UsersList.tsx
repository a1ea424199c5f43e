import { ActionIcon, Badge, Group, Paper, Select, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ROLE_OPTIONS, type LowerRole, type Permission } from '@plinth/shared';
import type { UpdatePermissionInput } from '../lib/api/update-permission';
import { errorText } from '../lib/mutation-state';
import { ConfirmDialog } from './dialogs/ConfirmDialog';
import { ExpandableRow } from './ExpandableRow';

/** The role-change mutation of the list's scope (`useUpdatePermission`). */
export type RoleChangeMutation = Pick<UseMutationResult<unknown, Error, UpdatePermissionInput>, 'mutateAsync' | 'isPending' | 'variables'>;

/** The removal mutation of the list's scope (`useDeletePermission`), called with the permission id. */
export type RemovalMutation = Pick<UseMutationResult<unknown, Error, string>, 'mutateAsync' | 'isPending'>;

export type UsersListProps = {
  /** Heading above the list ('Site users'); none when omitted. */
  title?: string;
  permissions: Permission[];
  /** The caller may change roles and remove users here; otherwise roles are read-only labels. */
  canManage: boolean;
  /** Shown when there is nobody in the list. */
  emptyText: string;
  /** Where users are removed from, for the confirmation ('this organization'). */
  scopeLabel: string;
  /** Changes a role; the select of the user being changed is disabled while it runs. */
  updateRole: RoleChangeMutation;
  /** Removes a user after the confirmation. */
  remove: RemovalMutation;
  /** When given, each row opens (a button named by the email) to show this (an exhibit user's permissions). */
  renderDetails?: (permission: Permission) => ReactNode;
};

function roleLabel(role: LowerRole): string {
  return ROLE_OPTIONS.find((o) => o.value === role)?.label ?? role;
}

const fullName = (p: Permission) => `${p.firstName} ${p.lastName}`.trim();

/** The email, the name when known, and whether the invitation is still open. */
function UserLabel({ permission }: { permission: Permission }) {
  const name = fullName(permission);
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <Text truncate>{permission.email}</Text>
      {name && (
        <Text size="sm" c="dimmed" truncate>
          {name}
        </Text>
      )}
      {!permission.accountCreated && (
        <Badge variant="light" color="yellow" size="sm" style={{ flexShrink: 0 }}>
          Invitation sent
        </Badge>
      )}
    </Group>
  );
}

/** Says how a role change or a removal ended: done, or refused with the server's reason (also logged, spec section 8). */
function announce(write: Promise<unknown>, texts: { done: string; failed: string }) {
  write.then(
    () => notifications.show({ color: 'teal', message: texts.done }),
    (e: unknown) => {
      console.error(texts.failed, e);
      notifications.show({ color: 'red', title: texts.failed, message: errorText(e, 'Please try again.') });
    },
  );
}

/**
 * The users of an organization, site or exhibit by email. Managers get a role dropdown and a
 * remove button (confirmed); everyone else reads the role. Every role change and removal says how
 * it ended in a notification (the server's reason when refused); the confirmation closes either way.
 */
export function UsersList({ title, permissions, canManage, emptyText, scopeLabel, updateRole, remove, renderDetails }: UsersListProps) {
  const [removing, setRemoving] = useState<Permission | null>(null);
  const changingId = updateRole.isPending ? updateRole.variables?.permissionId : undefined;

  const handleRoleChange = (permission: Permission, value: string | null) => {
    const role = ROLE_OPTIONS.find((o) => o.value === value)?.value;
    if (!role || role === permission.role) return;
    announce(updateRole.mutateAsync({ permissionId: permission.id, role }), {
      done: `${permission.email} is now a ${roleLabel(role)} of ${scopeLabel}.`,
      failed: `The role of ${permission.email} was not changed`,
    });
  };

  const handleRemove = async () => {
    if (!removing) return;
    const write = remove.mutateAsync(removing.id);
    announce(write, { done: `${removing.email} was removed from ${scopeLabel}.`, failed: `${removing.email} was not removed` });
    await write.catch(() => undefined);
  };

  const sorted = [...permissions].sort((a, b) => a.email.localeCompare(b.email));

  return (
    <Stack gap="sm">
      {title && <Title order={3}>{title}</Title>}
      {sorted.length === 0 ? (
        <Text c="dimmed">{emptyText}</Text>
      ) : (
        <Stack gap="xs" role="list" aria-label={title ?? 'Users'}>
          {sorted.map((permission) => {
            const actions = canManage ? (
              <Group gap="xs" wrap="nowrap">
                <Select
                  aria-label={`Role of ${permission.email}`}
                  data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
                  value={permission.role}
                  onChange={(value) => handleRoleChange(permission, value)}
                  allowDeselect={false}
                  disabled={changingId === permission.id}
                  w={140}
                />
                <Tooltip label="Remove user">
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove ${permission.email}`} onClick={() => setRemoving(permission)}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ) : (
              <Badge variant="outline">{roleLabel(permission.role)}</Badge>
            );
            if (renderDetails) {
              return (
                <ExpandableRow key={permission.id} label={permission.email} header={<UserLabel permission={permission} />} actions={actions}>
                  {renderDetails(permission)}
                </ExpandableRow>
              );
            }
            return (
              <Paper key={permission.id} withBorder p="sm" role="listitem">
                <Group justify="space-between" wrap="nowrap">
                  <UserLabel permission={permission} />
                  {actions}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove user"
        message={removing ? `Remove ${removing.email} from ${scopeLabel}?` : ''}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        danger
        onConfirm={handleRemove}
        mutation={{ isPending: remove.isPending, error: null }}
      />
    </Stack>
  );
}
