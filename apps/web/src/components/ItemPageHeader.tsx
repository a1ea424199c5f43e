import { ActionIcon, Anchor, Box, Breadcrumbs, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { MutationState } from '../lib/mutation-state';
import { LockedExhibitDialog, lockedExhibitsFromError, type LockedExhibit } from './dialogs/LockedExhibitDialog';
import { NameDialog } from './dialogs/NameDialog';
import { TypeToDeleteDialog } from './dialogs/TypeToDeleteDialog';

/** The four item screens that share this header. */
export type ItemType = 'organization' | 'site' | 'exhibit' | 'hardware';

/** A step of the path above the name; `to` null shows it as plain text (the user may not open it). */
export type Crumb = { label: string; to: string | null };

export type ItemPageHeaderProps = {
  itemType: ItemType;
  name: string;
  crumbs?: Crumb[];
  /** Right after the name (the hardware's online badge). */
  badge?: ReactNode;
  /** Under the name (the leader an exhibit follows). */
  subtitle?: ReactNode;
  /** The right side of the header: the screen's own buttons and switches. */
  actions?: ReactNode;
  /** The caller may rename and delete the item: shows the edit and delete buttons. */
  canEdit: boolean;
  /** Renames the item; the edit dialog closes when it resolves. */
  onRename: (name: string) => Promise<unknown>;
  renameMutation: MutationState;
  /** Deletes the item; the screen navigates away when it succeeds. */
  onDelete: () => Promise<unknown>;
  deleteMutation: MutationState;
  /**
   * The locked exhibits known to block the deletion: the locked-exhibit dialog opens instead of
   * the delete confirmation. A 409 LockedExhibits answer opens it too, with the exhibits the
   * server named. Organizations, sites and exhibits only.
   */
  lockedExhibits?: LockedExhibit[];
};

type Dialog = 'rename' | 'delete' | 'locked' | null;

function CrumbLink({ crumb }: { crumb: Crumb }) {
  if (crumb.to === null) {
    return (
      <Text size="sm" c="dimmed">
        {crumb.label}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={crumb.to} size="sm">
      {crumb.label}
    </Anchor>
  );
}

/**
 * The header of the organization, site, exhibit and hardware screens: the path above, the name
 * as the page heading with edit and delete for permitted roles, and the screen's actions on the
 * right. It owns the edit-name, type-the-name delete and locked-exhibit dialogs (spec, shared dialogs).
 */
export function ItemPageHeader(props: ItemPageHeaderProps) {
  const { itemType, name, crumbs = [], badge, subtitle, actions, canEdit, onRename, renameMutation, onDelete, deleteMutation, lockedExhibits } = props;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [lockedFromServer, setLockedFromServer] = useState<LockedExhibit[] | null>(null);
  const isLockedRefusal = lockedExhibitsFromError(deleteMutation.error) !== null;

  const handleDeleteClick = () => {
    setLockedFromServer(null);
    setDialog(lockedExhibits && lockedExhibits.length > 0 ? 'locked' : 'delete');
  };

  /** A deletion refused for locked exhibits moves on to the locked-exhibit dialog; other errors stay in the confirmation. */
  const handleDelete = () =>
    onDelete().catch((error: unknown) => {
      const locked = lockedExhibitsFromError(error);
      if (!locked) throw error;
      setLockedFromServer(locked);
      setDialog('locked');
    });

  /** Closes `which` unless the header has moved on to another dialog meanwhile (delete → locked). */
  const close = (which: Dialog) => setDialog((current) => (current === which ? null : current));

  return (
    <Group justify="space-between" wrap="wrap" align="flex-end">
      <Box style={{ minWidth: 0 }}>
        {crumbs.length > 0 && (
          <Box component="nav" aria-label="Breadcrumb">
            <Breadcrumbs separator="/">
              {crumbs.map((crumb, index) => (
                <CrumbLink key={index} crumb={crumb} />
              ))}
            </Breadcrumbs>
          </Box>
        )}
        <Group gap="xs" wrap="nowrap">
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          {badge}
          {canEdit && (
            <>
              <Tooltip label={`Edit ${itemType} name`}>
                <ActionIcon variant="subtle" aria-label={`Edit ${itemType} name`} onClick={() => setDialog('rename')}>
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={`Delete ${itemType}`}>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${itemType}`} onClick={handleDeleteClick}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
        </Group>
        {subtitle}
      </Box>
      {actions}
      <NameDialog
        opened={dialog === 'rename'}
        onClose={() => close('rename')}
        title={`Edit ${itemType} name`}
        label="Name"
        initialValue={name}
        confirmLabel="Save"
        requireChange
        onSubmit={onRename}
        mutation={renameMutation}
      />
      <TypeToDeleteDialog
        opened={dialog === 'delete'}
        onClose={() => close('delete')}
        itemType={itemType}
        itemName={name}
        onConfirm={handleDelete}
        mutation={{ ...deleteMutation, error: isLockedRefusal ? null : deleteMutation.error }}
      />
      {itemType !== 'hardware' && lockedExhibits && (
        <LockedExhibitDialog
          opened={dialog === 'locked'}
          onClose={() => close('locked')}
          itemType={itemType}
          lockedExhibits={lockedFromServer ?? lockedExhibits}
        />
      )}
    </Group>
  );
}
